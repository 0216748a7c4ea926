import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseKey } from '../src/auth/api-keys.js';
import { ENGINES } from './helpers/engines.js';
import { expectProblem } from './helpers/fuzz.js';
import { request } from './helpers/http.js';
import { startTestServer, type TestServer } from './helpers/server.js';

/**
 * Key rotation through the admin API: the key keeps its id, so its events stay its own; the old secret fails at
 * once, or when its grace period ends. "Now" is fixed (TECH_EVENTS_NOW) and moved by replacing the service's clock,
 * which both the rotation and every authentication read.
 */
const NOW = '2026-01-15T12:00:00Z';
const ADMIN_TOKEN = 'rotation-admin-token';

const event = (externalId: string, overrides: Record<string, unknown> = {}) => ({
  title: `Rotating ${externalId}`,
  startAt: '2026-06-01T18:00:00+02:00',
  city: 'Basel',
  externalId,
  ...overrides,
});

describe.each(ENGINES)('key rotation on %s', (engine) => {
  let server: TestServer;
  let api: string;
  let admin: string;
  let realNow: () => Date;

  beforeAll(async () => {
    server = await startTestServer(engine, { now: NOW, env: { ADMIN_TOKEN } });
    api = `${server.base}/api/events`;
    admin = `${server.base}/api/admin/keys`;
    realNow = server.service.ctx.now;
  });
  afterEach(() => {
    server.service.ctx.now = realNow;
  });
  afterAll(() => server?.close());

  const at = (iso: string) => {
    server.service.ctx.now = () => new Date(iso);
  };
  const createKey = async (name: string) => {
    const res = await request(admin, { key: ADMIN_TOKEN, json: { name, country: 'ch' } });
    expect(res.status, res.text).toBe(201);
    return res.body as { id: string; key: string };
  };
  const rotate = (id: string, body?: unknown) =>
    request(`${admin}/${id}/rotate`, {
      key: ADMIN_TOKEN,
      method: 'POST',
      ...(body === undefined ? {} : { json: body }),
    });
  const summaryOf = async (id: string) =>
    (await request(admin, { key: ADMIN_TOKEN })).body.keys.find((k: { id: string }) => k.id === id);
  /** Status of a write (an update of `externalId`) and of a `mine=1` read with `key`. */
  const works = async (key: string, externalId: string) => {
    const write = await request(api, { key, json: event(externalId, { title: `Updated by ${key.slice(-4)}` }) });
    const read = await request(`${api}?mine=1`, { key });
    return [write.status, read.status];
  };

  it('gives the same key id a new secret that keeps updating its events; the old secret gets 401 at once', async () => {
    const { id, key: old } = await createKey('Rotating Host');
    const first = await request(api, { key: old, json: event('r-1') });
    const second = await request(api, { key: old, json: event('r-2') });
    expect([first.status, second.status]).toEqual([201, 201]);

    const rotated = await rotate(id);
    expect(rotated.status, rotated.text).toBe(200);
    expect(rotated.headers.get('cache-control')).toMatch(/no-store/);
    const fresh: string = rotated.body.key;
    expect(parseKey(fresh)?.id).toBe(id);
    expect(fresh).not.toBe(old);
    expect(rotated.body).toMatchObject({
      id,
      name: 'Rotating Host',
      country: 'ch',
      revokedAt: null,
      rotatedAt: new Date(NOW).toISOString(),
      previousSecretExpiresAt: null,
    });

    // The same events, by the same externalIds: a resend is an update of the same id.
    const resent = await request(api, { key: fresh, json: event('r-1') });
    expect(resent.status).toBe(200);
    expect(resent.body).toMatchObject({ id: first.body.id, created: false });
    const changed = await request(api, { key: fresh, json: event('r-2', { title: 'Renamed after rotation' }) });
    expect(changed.body).toMatchObject({ id: second.body.id, created: false });
    const mine = await request(`${api}?mine=1`, { key: fresh });
    expect(mine.status).toBe(200);
    expect(mine.body.events.map((e: { id: string }) => e.id).sort()).toEqual([first.body.id, second.body.id].sort());
    expect(mine.body.events.find((e: { id: string }) => e.id === second.body.id).title).toBe('Renamed after rotation');
    const cancel = await request(api, { key: fresh, json: { action: 'cancel', externalId: 'r-1' } });
    expect(cancel.status).toBe(200);

    for (const res of [
      await request(api, { key: old, json: event('r-3') }),
      await request(`${api}?mine=1`, { key: old }),
      await request(api, { key: old, json: { action: 'restore', externalId: 'r-1' } }),
    ]) {
      expect(res.status).toBe(401);
      expectProblem(res, server.base);
      expect(res.body.code).toBe('invalid-key');
    }
    expect((await server.service.ctx.events.findById(first.body.id))!.lifecycle).toBe('cancelled');
    expect(await summaryOf(id)).toMatchObject({
      rotatedAt: new Date(NOW).toISOString(),
      previousSecretExpiresAt: null,
    });
  });

  it('keeps the old secret working until the grace period ends, then 401', async () => {
    const { id, key: old } = await createKey('Redeploying Host');
    expect((await request(api, { key: old, json: event('g-1') })).status).toBe(201);

    const rotated = await rotate(id, { grace: '2h' });
    expect(rotated.status, rotated.text).toBe(200);
    const until = '2026-01-15T14:00:00.000Z';
    expect(rotated.body.previousSecretExpiresAt).toBe(until);
    const fresh: string = rotated.body.key;
    expect(await summaryOf(id)).toMatchObject({ previousSecretExpiresAt: until });

    expect(await works(old, 'g-1')).toEqual([200, 200]);
    expect(await works(fresh, 'g-1')).toEqual([200, 200]);
    at('2026-01-15T13:59:59.999Z');
    expect(await works(old, 'g-1')).toEqual([200, 200]);
    at(until);
    expect(await works(old, 'g-1')).toEqual([401, 401]);
    expect(await works(fresh, 'g-1')).toEqual([200, 200]);
    expect(await summaryOf(id)).toMatchObject({ previousSecretExpiresAt: null });
    // Both secrets updated the one event.
    const mine = await request(`${api}?mine=1`, { key: fresh });
    expect(mine.body.events.map((e: { externalId: string }) => e.externalId)).toEqual(['g-1']);
  });

  it('ends a grace period at a second rotation: the oldest secret fails at once, the replaced one gets the new grace', async () => {
    const { id, key: first } = await createKey('Twice Rotated Host');
    const second: string = (await rotate(id, { grace: '1d' })).body.key;
    expect(await works(first, 'twice')).toEqual([201, 200]);

    const again = await rotate(id, { grace: '30m' });
    expect(again.status).toBe(200);
    expect(again.body.previousSecretExpiresAt).toBe('2026-01-15T12:30:00.000Z');
    const third: string = again.body.key;
    expect(await works(first, 'twice')).toEqual([401, 401]);
    expect(await works(second, 'twice')).toEqual([200, 200]);
    expect(await works(third, 'twice')).toEqual([200, 200]);

    // Without a grace period, a rotation also ends the running one.
    const last: string = (await rotate(id)).body.key;
    expect(await works(second, 'twice')).toEqual([401, 401]);
    expect(await works(third, 'twice')).toEqual([401, 401]);
    expect(await works(last, 'twice')).toEqual([200, 200]);
  });

  it('refuses to rotate a revoked key (409 key-revoked) and ends its grace period with the revocation', async () => {
    const { id, key: old } = await createKey('Revoked Host');
    const fresh: string = (await rotate(id, { grace: '1h' })).body.key;
    expect((await request(`${admin}/${id}/revoke`, { key: ADMIN_TOKEN, method: 'POST' })).status).toBe(200);
    expect(await works(old, 'rv')).toEqual([401, 401]);
    expect(await works(fresh, 'rv')).toEqual([401, 401]);
    expect(await summaryOf(id)).toMatchObject({ previousSecretExpiresAt: null });

    const refused = await rotate(id, { grace: '1h' });
    expect(refused.status).toBe(409);
    expectProblem(refused, server.base);
    expect(refused.body.code).toBe('key-revoked');
    expect(refused.body.key).toBeUndefined();
    expect(await works(fresh, 'rv')).toEqual([401, 401]);
  });

  it('answers an unknown id with a 404 problem, a bad grace with 422, and a bad admin token with 401, changing nothing', async () => {
    const unknown = await rotate('000000000000');
    expect(unknown.status).toBe(404);
    expectProblem(unknown, server.base);
    expect(unknown.body.code).toBe('not-found');

    const { id, key } = await createKey('Careful Host');
    for (const body of [
      { grace: '2x' },
      { grace: '-1h' },
      { grace: '31d' },
      { grace: 7200 },
      { after: '1h' },
      ['1h'],
    ]) {
      const res = await rotate(id, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expectProblem(res, server.base);
      expect(res.body.code).toBe('invalid-request');
    }
    expect((await rotate(id, { grace: 'soon' })).body.errors).toEqual([
      { field: 'grace', message: 'must be a duration such as 30m, 2h or 1d (at most 30d)', given: '"soon"' },
    ]);
    for (const token of [undefined, 'wrong-token', key]) {
      const res = await request(`${admin}/${id}/rotate`, { method: 'POST', ...(token ? { key: token } : {}) });
      expect(res.status).toBe(401);
      expectProblem(res, server.base);
    }
    expect(await works(key, 'careful')).toEqual([201, 200]);
    expect(await summaryOf(id)).toMatchObject({ rotatedAt: null, previousSecretExpiresAt: null });
    // The longest grace period is accepted.
    expect((await rotate(id, { grace: '30d' })).body.previousSecretExpiresAt).toBe('2026-02-14T12:00:00.000Z');
  });
});
