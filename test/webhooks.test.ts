import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publicAddressesOnly } from '../src/importers/http-reader.js';
import { retryDelayMs } from '../src/use-cases/webhook-delivery.js';
import { messageFor } from '../src/use-cases/webhook-fan-out.js';
import { createWebhook } from '../src/use-cases/webhooks.js';
import { ENGINES } from './helpers/engines.js';
import { request } from './helpers/http.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { startReceiver, until, verifiesWith } from './helpers/webhook-receiver.js';

const RETRY_BASE_MS = 300;
const TIMEOUT_MS = 1_500;

const quantum = (externalId: string, overrides: Record<string, unknown> = {}) => ({
  externalId,
  title: `Quantum Night ${externalId}`,
  startAt: '2030-03-01T18:00:00+01:00',
  endAt: '2030-03-01T21:00:00+01:00',
  city: 'Zürich',
  topics: ['quantum'],
  ...overrides,
});

describe('webhook messages and retries, without a server', () => {
  it('follows each change of decision with its message, and nothing else', () => {
    expect(messageFor('unmatched', 'matched', false)).toBe('event.matched');
    expect(messageFor('matched', 'matched', true)).toBe('event.updated');
    expect(messageFor('matched', 'matched', false)).toBeUndefined();
    expect(messageFor('matched', 'cancelled', false)).toBe('event.cancelled');
    expect(messageFor('cancelled', 'matched', true)).toBe('event.restored');
    expect(messageFor('matched', 'unmatched', true)).toBe('event.unmatched');
    expect(messageFor('unmatched', 'unmatched', true)).toBeUndefined();
    expect(messageFor('cancelled', 'cancelled', true)).toBeUndefined();
  });

  it('waits base·4^(n−1), capped, within ±20 %', () => {
    expect(retryDelayMs(1, 10_000, 0.5)).toBe(10_000);
    expect(retryDelayMs(3, 10_000, 0.5)).toBe(160_000);
    expect(retryDelayMs(9, 10_000, 0.5)).toBe(21_600_000);
    expect(retryDelayMs(2, 10_000, 0)).toBe(32_000);
    expect(retryDelayMs(2, 10_000, 1)).toBe(48_000);
  });
});

describe.each(ENGINES)('webhooks on %s', (engine) => {
  let server: TestServer;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let key: string;
  let api: string;

  beforeAll(async () => {
    receiver = await startReceiver();
    server = await startTestServer(engine, {
      env: {
        CALENDARS_ALLOW_PRIVATE_ADDRESSES: '1',
        WEBHOOKS_RETRY_BASE_MS: String(RETRY_BASE_MS),
        WEBHOOKS_TIMEOUT_MS: String(TIMEOUT_MS),
        WEBHOOKS_POLL_MS: '100',
      },
    });
    key = await server.createKey('Hook Host');
    api = `${server.base}/api`;
  });
  afterAll(async () => {
    await server?.close();
    await receiver?.close();
  });

  /** Subscribes a receiver path to a query; the secret is what its deliveries must verify with. */
  const subscribe = async (path: string, query: Record<string, unknown>) => {
    const res = await request(`${api}/webhooks`, { key, json: { url: `${receiver.base}${path}`, ...query } });
    expect(res.status, res.text).toBe(201);
    receiver.expect(path, res.body.secret);
    return res.body as { id: string; secret: string };
  };
  const write = async (body: Record<string, unknown>) => {
    const res = await request(`${api}/events`, { key, json: body });
    expect([200, 201], res.text).toContain(res.status);
    return res.body;
  };
  const typesAt = (path: string) => receiver.at(path).map((r) => `${r.payload.type} ${r.payload.data.event.title}`);

  it('sends exactly the documented messages in order per event, each verified, and nothing for the rest', async () => {
    const sub = await subscribe('/order', { topic: 'quantum', city: 'Zürich' });
    expect(sub.id).toMatch(/^whk_/);
    expect(sub.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32,}={0,2}$/);

    await write(quantum('o1'));
    await until(() => receiver.at('/order').length === 1, 15_000, 'matched');
    await write(quantum('o1', { startAt: '2030-03-02T18:00:00+01:00', endAt: '2030-03-02T21:00:00+01:00' }));
    await until(() => receiver.at('/order').length === 2, 15_000, 'updated');
    // Neither time, place, title nor status: nothing is sent.
    await write(
      quantum('o1', {
        startAt: '2030-03-02T18:00:00+01:00',
        endAt: '2030-03-02T21:00:00+01:00',
        description: 'Now with pizza.',
      }),
    );
    await request(`${api}/events?externalId=o1`, { key, method: 'DELETE' });
    await until(() => receiver.at('/order').length === 3, 15_000, 'cancelled');
    await write({ action: 'restore', externalId: 'o1' });
    await until(() => receiver.at('/order').length === 4, 15_000, 'restored');
    // Out of the query: another place.
    await write(
      quantum('o1', { city: 'Bern', startAt: '2030-03-02T18:00:00+01:00', endAt: '2030-03-02T21:00:00+01:00' }),
    );
    await until(() => receiver.at('/order').length === 5, 15_000, 'unmatched');
    // Changes that never match send nothing.
    await write(quantum('o2', { city: 'Basel' }));
    await write(quantum('o3', { title: 'Kubernetes Abend', topics: ['cloud-devops'] }));
    await write(quantum('o1', { city: 'Bern', title: 'Still elsewhere' }));
    await new Promise((r) => setTimeout(r, 1_500));

    expect(typesAt('/order')).toEqual([
      'event.matched Quantum Night o1',
      'event.updated Quantum Night o1',
      'event.cancelled Quantum Night o1',
      'event.restored Quantum Night o1',
      'event.unmatched Quantum Night o1',
    ]);
    const [first, moved] = receiver.at('/order');
    expect(first!.payload.data.subscription).toBe(sub.id);
    expect(first!.payload.data.event.start).toBe('2030-03-01T17:00:00.000Z');
    expect(moved!.payload.data.event.start).toBe('2030-03-02T17:00:00.000Z');
    expect(receiver.at('/order')[2]!.payload.data.event.lifecycle).toBe('cancelled');
    for (const r of receiver.at('/order')) {
      expect(r.id).toMatch(/^msg_/);
      expect(r.body.length).toBeLessThan(20_000);
    }
    expect(new Set(receiver.at('/order').map((r) => r.id)).size).toBe(5);
    expect(receiver.unverified).toEqual([]);

    const listed = await request(`${api}/webhooks`, { key });
    expect(listed.status).toBe(200);
    expect(listed.text).not.toContain('whsec_');
    expect(listed.body.webhooks.map((w: { id: string }) => w.id)).toContain(sub.id);
    const detail = await request(`${api}/webhooks/${sub.id}`, { key });
    expect(detail.body.deliveries).toHaveLength(5);
    expect(detail.body.deliveries[0]).toMatchObject({ type: 'event.unmatched', state: 'delivered', attempts: 1 });
    expect(detail.body.query).toEqual({ topic: 'quantum', city: 'Zürich' });
  }, 90_000);

  it('retries a 500 with the same webhook-id after the backoff, and honours Retry-After', async () => {
    receiver.answer('/flaky', { status: 500 }, { status: 503, headers: { 'retry-after': '1' } }, { status: 200 });
    await subscribe('/flaky', { topic: 'quantum', city: 'Lausanne' });
    await write(quantum('f1', { city: 'Lausanne' }));
    await until(() => receiver.at('/flaky').length === 3, 20_000, 'three attempts');
    const [a, b, c] = receiver.at('/flaky');
    expect(b!.id).toBe(a!.id);
    expect(c!.id).toBe(a!.id);
    expect(b!.body).toBe(a!.body);
    expect(b!.at - a!.at).toBeGreaterThanOrEqual(RETRY_BASE_MS * 0.8 - 50);
    // The 503 asked for a second: more than the backoff (4 · base · 1.2) would have waited.
    expect(c!.at - b!.at).toBeGreaterThanOrEqual(950);
    expect(receiver.unverified).toEqual([]);
  }, 60_000);

  it('ends the subscription on 410 and says so', async () => {
    receiver.answer('/gone', { status: 410 });
    const sub = await subscribe('/gone', { topic: 'quantum', city: 'Genf' });
    await write(quantum('g1', { city: 'Genève' }));
    await until(async () => (await request(`${api}/webhooks/${sub.id}`, { key })).body.state === 'disabled');
    const detail = await request(`${api}/webhooks/${sub.id}`, { key });
    expect(detail.body.stateReason).toMatch(/410/);
    expect(detail.body.deliveries[0]).toMatchObject({ state: 'failed', lastStatus: 410, attempts: 1 });
    await write(quantum('g2', { city: 'Genève' }));
    await new Promise((r) => setTimeout(r, 1_000));
    expect(receiver.at('/gone')).toHaveLength(1);
  }, 60_000);

  it('lets a hanging target cost one deadline, holding nobody else’s deliveries', async () => {
    receiver.answer('/hang', 'hang');
    const hung = await subscribe('/hang', { topic: 'quantum', city: 'Lugano' });
    await subscribe('/fast', { topic: 'quantum', city: 'Lugano' });
    await write(quantum('h1', { city: 'Lugano' }));
    await until(() => receiver.at('/hang').length === 1 && receiver.at('/fast').length === 1, 10_000, 'both tried');
    const [fast] = receiver.at('/fast');
    const [hang] = receiver.at('/hang');
    expect(Math.abs(fast!.at - hang!.at)).toBeLessThan(TIMEOUT_MS);
    await write(quantum('h2', { city: 'Lugano' }));
    await until(() => receiver.at('/fast').length === 2, 10_000, 'the fast target’s second');
    // Delivered while the other target still held its first attempt.
    expect(receiver.at('/fast')[1]!.at - hang!.at).toBeLessThan(TIMEOUT_MS);
    await until(
      async () => (await request(`${api}/webhooks/${hung.id}`, { key })).body.deliveries.some((d: any) => d.lastError),
      10_000,
      'the hanging attempt recorded',
    );
    const detail = await request(`${api}/webhooks/${hung.id}`, { key });
    const first = detail.body.deliveries.find((d: any) => d.eventId.includes('h1') || d.lastError);
    expect(first.lastError).toMatch(new RegExp(`no answer within ${TIMEOUT_MS} ms`));
    expect(first.state).toBe('pending');
    expect(detail.body.state).toBe('active');
    expect(detail.body.failingSince).not.toBeNull();
    await request(`${api}/webhooks/${hung.id}`, { key, method: 'DELETE' });
  }, 60_000);

  it('signs with the old and the new secret for a day after a rotation', async () => {
    const sub = await subscribe('/rotate', { topic: 'quantum', city: 'Basel' });
    const rotated = await request(`${api}/webhooks/${sub.id}/rotate`, { key, method: 'POST' });
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).not.toBe(sub.secret);
    expect(Date.parse(rotated.body.previousSecretUntil) - Date.now()).toBeGreaterThan(23 * 3_600_000);
    receiver.expect('/rotate', sub.secret, rotated.body.secret);
    await write(quantum('r1', { city: 'Basel', title: 'Quantum Basel' }));
    await until(() => receiver.at('/rotate').length === 1);
    const [r] = receiver.at('/rotate');
    const signatures = r!.signature.split(' ');
    expect(signatures).toHaveLength(2);
    for (const s of signatures) expect(s).toMatch(/^v1,/);
    const headers = { 'webhook-id': r!.id, 'webhook-timestamp': r!.timestamp, 'webhook-signature': r!.signature };
    expect(verifiesWith(sub.secret, r!.body, headers)).toBe(true);
    expect(verifiesWith(rotated.body.secret, r!.body, headers)).toBe(true);
    expect(verifiesWith(`whsec_${Buffer.alloc(24, 1).toString('base64')}`, r!.body, headers)).toBe(false);
    expect(receiver.unverified).toEqual([]);
  }, 60_000);

  it('resends a delivery under its id, and sends nothing while paused', async () => {
    const sub = await subscribe('/again', { topic: 'quantum', city: 'Bern' });
    await write(quantum('a1', { city: 'Bern', title: 'Quantum Bern' }));
    await until(() => receiver.at('/again').length === 1);
    const id = receiver.at('/again')[0]!.id;
    const resent = await request(`${api}/webhooks/${sub.id}/deliveries/${id}/resend`, { key, method: 'POST' });
    expect(resent.status).toBe(200);
    await until(() => receiver.at('/again').length === 2);
    expect(receiver.at('/again')[1]!.id).toBe(id);
    expect(
      (await request(`${api}/webhooks/${sub.id}/deliveries/msg_nope/resend`, { key, method: 'POST' })).status,
    ).toBe(404);

    expect((await request(`${api}/webhooks/${sub.id}/pause`, { key, method: 'POST' })).body.state).toBe('paused');
    await write(quantum('a2', { city: 'Bern', title: 'Quantum Bern 2' }));
    await new Promise((r) => setTimeout(r, 1_000));
    expect(receiver.at('/again')).toHaveLength(2);
    expect((await request(`${api}/webhooks/${sub.id}/resume`, { key, method: 'POST' })).body.state).toBe('active');
    await write(quantum('a3', { city: 'Bern', title: 'Quantum Bern 3' }));
    await until(() => receiver.at('/again').length === 3);
    expect(receiver.at('/again')[2]!.payload.data.event.title).toBe('Quantum Bern 3');

    const deleted = await request(`${api}/webhooks/${sub.id}`, { key, method: 'DELETE' });
    expect(deleted.body.state).toBe('deleted');
    expect((await request(`${api}/webhooks/${sub.id}`, { key })).status).toBe(404);
    const kept = await server.service.ctx.webhooks.find(sub.id);
    expect(kept?.state).toBe('deleted');
  }, 60_000);

  it('sends nothing for an event that is over, event.unmatched when one is made unlisted, nothing once revoked', async () => {
    const other = await server.createKey('Soon Revoked');
    const res = await request(`${api}/webhooks`, {
      key: other,
      json: { url: `${receiver.base}/later`, topic: 'quantum', city: 'Luzern' },
    });
    expect(res.status, res.text).toBe(201);
    receiver.expect('/later', res.body.secret);
    await write(
      quantum('p1', { city: 'Luzern', startAt: '2020-03-01T18:00:00+01:00', endAt: '2020-03-01T21:00:00+01:00' }),
    );
    await write(quantum('u1', { city: 'Luzern', title: 'Quantum Luzern' }));
    await until(() => receiver.at('/later').length === 1, 15_000, 'matched');
    await write(quantum('u1', { city: 'Luzern', title: 'Quantum Luzern', visibility: 'unlisted' }));
    await until(() => receiver.at('/later').length === 2, 15_000, 'unmatched');
    expect(typesAt('/later')).toEqual(['event.matched Quantum Luzern', 'event.unmatched Quantum Luzern']);

    const { ctx } = server.service;
    const revoked = (await ctx.keys.list()).find((k) => k.name === 'Soon Revoked')!;
    await ctx.keys.revoke(revoked.id);
    await write(quantum('u2', { city: 'Luzern', title: 'Quantum Luzern 2' }));
    await new Promise((r) => setTimeout(r, 1_000));
    expect(receiver.at('/later')).toHaveLength(2);
    expect(receiver.unverified).toEqual([]);
  }, 60_000);

  it('refuses a query the grammar refuses, fields outside it, and another key’s subscription', async () => {
    const url = `${receiver.base}/x`;
    const bad = await request(`${api}/webhooks`, { key, json: { url, topic: 'knitting' } });
    expect(bad.status).toBe(422);
    expect(bad.text).toContain('topic');
    const unknown = await request(`${api}/webhooks`, { key, json: { url, colour: 'blue' } });
    expect(unknown.status).toBe(422);
    expect(unknown.text).toContain('colour');
    expect((await request(`${api}/webhooks`, { key, json: { url, cursor: 'x' } })).status).toBe(422);
    expect((await request(`${api}/webhooks`, { key, json: { url: 'ftp://example.org/' } })).status).toBe(422);
    expect((await request(`${api}/webhooks`, { json: { url } })).status).toBe(401);
    const sub = await subscribe('/x', { q: 'quantum' });
    const other = await server.createKey('Other Host');
    expect((await request(`${api}/webhooks/${sub.id}`, { key: other })).status).toBe(404);
    await request(`${api}/webhooks/${sub.id}`, { key, method: 'DELETE' });
  });

  it('refuses a target on a private address where the operator allows none', async () => {
    const { ctx } = server.service;
    const host = (await ctx.keys.list())[0]!;
    await expect(
      createWebhook({ ...ctx, calendarGuard: publicAddressesOnly() }, host, { url: `${receiver.base}/private` }),
    ).rejects.toMatchObject({ code: 'invalid-request' });
  });

  it('counts deliveries by outcome in /metrics and links the subscriptions from mine=1', async () => {
    const metrics = await request(`${server.base}/metrics`);
    expect(metrics.text).toMatch(/webhook_deliveries_total\{outcome="delivered"\} [1-9]/);
    expect(metrics.text).toMatch(/webhook_deliveries_total\{outcome="retry"\} [1-9]/);
    expect(metrics.text).toMatch(/webhook_deliveries_total\{outcome="gone"\} 1/);
    const mine = await request(`${api}/events?mine=1`, { key });
    expect(mine.body.webhooks).toBe(`${server.base}/api/webhooks`);
  });
});
