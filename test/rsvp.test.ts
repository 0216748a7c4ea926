import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attendeeHolder, keyHolder } from '../src/catalogue/holder.js';
import { rsvp, withdrawAll } from '../src/use-cases/rsvp.js';
import { ENGINES } from './helpers/engines.js';
import { request } from './helpers/http.js';
import { connectMcp } from './helpers/mcp.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const NOW = '2025-03-01T09:00:00Z';

/** The id of a host key (`tev_<id>_<secret>`), as a host's list names its RSVPs: `key:<id>`. */
const handleOf = (key: string) => `key:${key.split('_')[1]}`;

/**
 * RSVPs over HTTP (and the MCP tool's at-source answer): capacity under a crowd racing for it, waitlist order,
 * promotions when places free, the host's list and decisions, and imported events that take no RSVP here.
 */
describe.each(ENGINES)('RSVPs over HTTP on %s', (engine) => {
  let server: TestServer;
  let host: string;
  let other: string;
  const api = (path: string, init: Parameters<typeof request>[1] = {}) => request(`${server.base}${path}`, init);
  const rows = async () =>
    Number(
      (
        await server.service.ctx.storage.db
          .selectFrom('registrations')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const push = (body: Record<string, unknown>) => api('/api/events', { key: host, json: body });
  const event = (externalId: string, title: string, more: Record<string, unknown> = {}) => ({
    externalId,
    title,
    startAt: '2025-03-12T18:30:00+01:00',
    city: 'Zürich',
    ...more,
  });

  beforeAll(async () => {
    server = await startTestServer(engine, { now: NOW, env: { SEED: '1' } });
    host = await server.createKey('Zürich Hosts', 'ch');
    other = await server.createKey('Other Host', 'ch');
    expect((await push(event('race', 'Race Night', { capacity: 10 }))).status).toBe(201);
    expect((await push(event('inv', 'Invite Dinner', { regMode: 'invite', capacity: 1 }))).status).toBe(201);
    expect((await push(event('gone', 'Gone Meetup'))).status).toBe(201);
    expect((await push(event('pair', 'Pair Night', { capacity: 1 }))).status).toBe(201);
    expect((await push(event('batch', 'Batch Night', { capacity: 1 }))).status).toBe(201);
  }, 120_000);
  afterAll(() => server?.close());

  let keys: string[] = [];
  let answers: { key: string; status: string; waitlistPlace: number | null }[] = [];

  it('50 racing RSVPs from 50 keys for 10 places: exactly 10 registered, 40 waitlisted 1..40 in queue order', async () => {
    keys = await Promise.all(Array.from({ length: 50 }, (_, i) => server.createKey(`Guest ${i}`, 'ch')));
    const responses = await Promise.all(keys.map((key) => api('/api/events/race-night/rsvp', { method: 'POST', key })));
    for (const r of responses) expect(r.status, r.text).toBe(200);
    answers = responses.map((r, i) => ({ key: keys[i]!, ...r.body }));
    expect(answers.filter((a) => a.status === 'registered')).toHaveLength(10);
    const waiting = answers.filter((a) => a.status === 'waitlisted');
    expect(waiting.map((a) => a.waitlistPlace).sort((a, b) => a! - b!)).toEqual(
      Array.from({ length: 40 }, (_, i) => i + 1),
    );

    const list = await api('/api/events/race-night/rsvps', { key: host });
    expect(list.status, list.text).toBe(200);
    expect(list.headers.get('cache-control')).toBe('private, no-store');
    expect(list.body).toMatchObject({
      eventId: 'race-night',
      capacity: 10,
      counts: { registered: 10, waitlisted: 40, requested: 0, declined: 0 },
    });
    // The host's list is in the order the server queued them: each place answered is the place listed.
    const listed = (list.body.rsvps as { handle: string; status: string; waitlistPlace: number | null }[]).filter(
      (r) => r.status === 'waitlisted',
    );
    expect(listed.map((r) => r.waitlistPlace)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    for (const a of waiting) {
      expect(listed.find((r) => r.handle === handleOf(a.key))?.waitlistPlace).toBe(a.waitlistPlace);
    }
    // Someone else's key sees nothing of the list.
    expect((await api('/api/events/race-night/rsvps', { key: other })).body.code).toBe('not-owner');
    expect((await api('/api/events/race-night/rsvps')).status).toBe(401);
  }, 120_000);

  const keyAt = (place: number) => answers.find((a) => a.waitlistPlace === place)!.key;
  const own = (key: string) => api('/api/events/race-night/rsvp', { key });

  it('answers each holder its own state, never cached; a repeated RSVP changes nothing', async () => {
    const mine = await own(keyAt(3));
    expect(mine.status).toBe(200);
    expect(mine.headers.get('cache-control')).toBe('private, no-store');
    expect(mine.body).toMatchObject({ status: 'waitlisted', waitlistPlace: 3, eventId: 'race-night' });
    expect((await own(keyAt(4))).body.waitlistPlace).toBe(4);
    const again = await api('/api/events/race-night/rsvp', { method: 'POST', key: keyAt(3) });
    expect(again.body).toMatchObject({ status: 'waitlisted', waitlistPlace: 3, changed: false });
    const stranger = await own(await server.createKey('Stranger', 'ch'));
    expect(stranger.status).toBe(404);
    expect(stranger.body.code).toBe('rsvp-not-found');
  });

  it('a withdrawal promotes the longest waiting; the queue moves up', async () => {
    const registered = answers.find((a) => a.status === 'registered')!.key;
    const first = keyAt(1);
    const second = keyAt(2);
    const out = await api('/api/events/race-night/rsvp', { method: 'DELETE', key: registered });
    expect(out.body).toMatchObject({ status: 'withdrawn', changed: true, counts: { registered: 10, waitlisted: 39 } });
    expect((await own(first)).body.status).toBe('registered');
    expect((await own(second)).body.waitlistPlace).toBe(1);
  });

  it('a capacity raised by the host promotes in waitlist order, over PUT and through the normal write', async () => {
    const next = [2, 3, 4, 5, 6].map(keyAt);
    const bad = await api('/api/events/race-night/capacity', { method: 'PUT', key: host, json: { capacity: 0 } });
    expect(bad.status).toBe(422);
    const foreign = await api('/api/events/race-night/capacity', { method: 'PUT', key: other, json: { capacity: 99 } });
    expect(foreign.status).toBe(403);
    const raised = await api('/api/events/race-night/capacity', { method: 'PUT', key: host, json: { capacity: 15 } });
    expect(raised.status, raised.text).toBe(200);
    expect(raised.body).toMatchObject({ capacity: 15, promoted: 5, changed: true, counts: { registered: 15 } });
    for (const key of next) expect((await own(key)).body.status).toBe('registered');
    expect((await own(keyAt(7))).body.waitlistPlace).toBe(1);

    // The host's next write of the event carries its capacity too: 18 promotes the next three.
    expect((await push(event('race', 'Race Night', { capacity: 18 }))).status).toBe(200);
    for (const place of [7, 8, 9]) expect((await own(keyAt(place))).body.status).toBe('registered');
    expect((await own(keyAt(10))).body.waitlistPlace).toBe(1);

    // Lowered, nobody loses a place; the next RSVP waits.
    const lowered = await api('/api/events/race-night/capacity', { method: 'PUT', key: host, json: { capacity: 5 } });
    expect(lowered.body).toMatchObject({ promoted: 0, counts: { registered: 18 } });
    const late = await api('/api/events/race-night/rsvp', { method: 'POST', key: await server.createKey('Late') });
    expect(late.body.status).toBe('waitlisted');
    // The capacity is the event's, kept as a revision like any write.
    expect((await server.service.ctx.events.findById('race-night'))!.capacity).toBe(5);
    const revisions = await server.service.ctx.events.revisions('race-night');
    expect(revisions.at(-1)).toMatchObject({ action: 'update' });
  });

  it('invite: requests wait for the host, who approves (registered, or waitlisted when full) or declines', async () => {
    const [a, b, c] = await Promise.all(['A', 'B', 'C'].map((n) => server.createKey(`Invitee ${n}`)));
    for (const key of [a!, b!, c!]) {
      const r = await api('/api/events/invite-dinner/rsvp', { method: 'POST', key });
      expect(r.body.status).toBe('requested');
    }
    const list = await api('/api/events/invite-dinner/rsvps', { key: host });
    expect(list.body.counts).toMatchObject({ requested: 3 });
    expect(list.body.rsvps.map((r: { handle: string }) => r.handle)).toEqual([a, b, c].map((k) => handleOf(k!)));
    const decide = (key: string, decision: string, as = host) =>
      api(`/api/events/invite-dinner/rsvps/${encodeURIComponent(handleOf(key))}`, { key: as, json: { decision } });

    expect((await decide(a!, 'approve')).body).toMatchObject({ status: 'registered', changed: true });
    // One place only: the second approved waits.
    expect((await decide(b!, 'approve')).body).toMatchObject({ status: 'waitlisted', waitlistPlace: 1 });
    expect((await decide(b!, 'approve')).body).toMatchObject({ status: 'waitlisted', changed: false });
    expect((await decide(c!, 'decline')).body).toMatchObject({ status: 'declined', changed: true });
    // A declined guest asking again stays declined.
    const asks = await api('/api/events/invite-dinner/rsvp', { method: 'POST', key: c! });
    expect(asks.body).toMatchObject({ status: 'declined', changed: false });
    expect((await api('/api/events/invite-dinner/rsvp', { method: 'DELETE', key: c! })).body.status).toBe('declined');

    const refused = await decide(a!, 'decline');
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'rsvp-not-requested', status: 'registered' });
    expect((await decide(a!, 'maybe')).status).toBe(422);
    expect((await decide(a!, 'approve', other)).status).toBe(403);
    const unknown = await api('/api/events/invite-dinner/rsvps/quiet-otter-0000', {
      key: host,
      json: { decision: 'approve' },
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('rsvp-not-found');
    expect((await api('/api/events/invite-dinner/rsvps')).status).toBe(401);
  });

  it('attendees are listed by handle; withdrawAll ends every active RSVP, each promoting the next', async () => {
    const ctx = server.service.ctx;
    const person = await ctx.attendees.create();
    const waiting = await server.createKey('Waiting Guest');
    // The attendee takes Pair Night's one place and asks for the dinner; the key waits for Pair Night.
    expect((await rsvp(ctx, attendeeHolder(person.id), { id: 'pair-night' })).registration.status).toBe('registered');
    expect((await rsvp(ctx, attendeeHolder(person.id), { id: 'invite-dinner' })).registration.status).toBe('requested');
    expect((await api('/api/events/pair-night/rsvp', { method: 'POST', key: waiting })).body.status).toBe('waitlisted');
    const list = await api('/api/events/pair-night/rsvps', { key: host });
    expect(list.body.rsvps.map((r: { handle: string }) => r.handle)).toEqual([person.handle, handleOf(waiting)]);
    expect(person.handle).toMatch(/^[a-z]+-[a-z]+-\d{4}$/);

    expect(await withdrawAll(ctx, attendeeHolder(person.id))).toBe(2);
    expect((await api('/api/events/pair-night/rsvp', { key: waiting })).body.status).toBe('registered');
    const dinner = await api('/api/events/invite-dinner/rsvps', { key: host });
    expect(dinner.body.rsvps.map((r: { handle: string }) => r.handle)).not.toContain(person.handle);
    expect(await withdrawAll(ctx, attendeeHolder(person.id))).toBe(0);
    expect(await withdrawAll(ctx, keyHolder('000000000000'))).toBe(0);
  });

  it('a batch write that raises the capacity promotes too; MCP answers declined in its output schema', async () => {
    const [first, second] = await Promise.all([server.createKey('First'), server.createKey('Second')]);
    for (const key of [first!, second!]) await api('/api/events/batch-night/rsvp', { method: 'POST', key });
    expect((await api('/api/events/batch-night/rsvp', { key: second! })).body.status).toBe('waitlisted');
    const batch = await api('/api/events/batch', {
      key: host,
      json: { events: [event('batch', 'Batch Night', { capacity: 2 })] },
    });
    expect(batch.status, batch.text).toBe(200);
    expect((await api('/api/events/batch-night/rsvp', { key: second! })).body.status).toBe('registered');

    // A declined request, asked again over MCP: the SDK client checks the answer against the tool's output schema.
    const declined = await server.createKey('Declined Guest');
    await api('/api/events/invite-dinner/rsvp', { method: 'POST', key: declined });
    await api(`/api/events/invite-dinner/rsvps/${handleOf(declined)}`, { key: host, json: { decision: 'decline' } });
    const client = await connectMcp(server.base, declined);
    const again = await client.callTool({ name: 'rsvp', arguments: { id: 'invite-dinner' } });
    expect(again.isError).toBeFalsy();
    expect(again.structuredContent).toMatchObject({ status: 'declined', changed: false });
    await client.close();
  });

  it('a cancelled event refuses new RSVPs with 409', async () => {
    await api('/api/events?externalId=gone', { key: host, method: 'DELETE' });
    const refused = await api('/api/events/gone-meetup/rsvp', { method: 'POST', key: other });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('event-cancelled');
  });

  it('without a holder: 401 saying how to connect; a bad key: 401', async () => {
    const anonymous = await api('/api/events/race-night/rsvp', { method: 'POST' });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.code).toBe('missing-holder');
    expect(anonymous.body.detail).toMatch(/passkey at \/me.*OAuth.*host API key/);
    const bad = await api('/api/events/race-night/rsvp', {
      method: 'POST',
      key: 'tev_000000000000_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
    });
    expect(bad.body.code).toBe('invalid-key');
    expect((await api('/api/events/no-such-event/rsvp', { method: 'POST', key: other })).status).toBe(404);
  });

  it('an imported event: registration at the source, with its link, over HTTP and MCP; nothing stored', async () => {
    const imported = (await api('/api/events?limit=50')).body.events.find(
      (e: { source: string }) => e.source !== 'host',
    );
    expect(imported).toBeTruthy();
    const stored = (await server.service.ctx.events.findById(imported.id))!;
    const link = stored.url ?? stored.sourceUrl;
    expect(link).toBeTruthy();
    const before = await rows();

    for (const method of ['POST', 'DELETE', 'GET']) {
      const r = await api(`/api/events/${imported.id}/rsvp`, { method, key: other });
      expect(r.status, `${method} ${r.text}`).toBe(409);
      expect(r.body).toMatchObject({ code: 'registration-at-source', registrationUrl: link });
      expect(r.body.detail).toContain(link);
    }
    const client: Client = await connectMcp(server.base, other);
    const tool = await client.callTool({ name: 'rsvp', arguments: { id: imported.id } });
    expect(tool.isError).toBe(true);
    expect((tool.content as { text: string }[])[0]!.text).toContain(link);
    await client.close();
    expect((await rows()) - before).toBe(0);
  });
});
