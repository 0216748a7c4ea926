import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_PENDING_PROPOSALS } from '../src/use-cases/proposals.js';
import { communityHost } from './helpers/community-host.js';
import { ENGINES } from './helpers/engines.js';
import { adminSync, request } from './helpers/http.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const NOW = '2026-11-26T10:00:00Z';
const ADMIN = 'proposals-admin-token';

describe.each(ENGINES)('communities propose calendars and ask for keys, the operator decides, on %s', (engine) => {
  const host = communityHost();
  let svc: TestServer;
  let cal: string;

  const api = (path: string, init: Parameters<typeof request>[1] = {}) => request(`${svc.base}${path}`, init);
  const admin = (path: string, json?: unknown) =>
    api(`/api/admin/proposals${path}`, { key: ADMIN, ...(json !== undefined ? { json } : { method: 'POST' }) });
  const propose = (json: unknown) => api('/api/calendars/proposals', { json });
  /** The proposal once its preview has been read. */
  const read = async (id: string) => {
    for (const until = Date.now() + 30_000; ; ) {
      const res = await api(`/api/proposals/${id}`);
      if (res.body.state !== 'reading' || Date.now() > until) return res;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  };
  const listed = async () =>
    ((await api('/api/events?limit=100')).body.events as { id: string; title: string; source: string }[]).filter(
      (e) => e.source === 'community',
    );

  beforeAll(async () => {
    cal = await host.listen();
    svc = await startTestServer(engine, {
      now: NOW,
      // The stand-in listens on 127.0.0.1: that address alone is allowed, every other private one refused.
      env: {
        CALENDARS_ALLOW_PRIVATE_ADDRESSES: '127.0.0.1/32',
        ADMIN_TOKEN: ADMIN,
        RATE_LIMIT_PROPOSALS_PER_HOUR: '0',
      },
    });
  });
  afterAll(async () => {
    await svc?.close();
    await host.close();
  });

  let zurich = '';
  it('takes a proposal at once (202, Location) and shows its preview at the status URL once read', async () => {
    const res = await propose({ url: `${cal}/zurich-ai/events/ical/`, city: 'Zürich', name: 'Zurich AI' });
    expect(res.status).toBe(202);
    zurich = res.body.id;
    expect(zurich).toMatch(/^prp_[0-9a-f]{32}$/);
    expect(res.headers.get('location')).toBe(`${svc.base}/api/proposals/${zurich}`);
    expect(res.body).toMatchObject({ kind: 'calendar', statusUrl: res.headers.get('location') });
    expect(['reading', 'waiting']).toContain(res.body.state);

    const status = await read(zurich);
    expect(status.status).toBe(200);
    expect(status.headers.get('cache-control')).toBe('no-store');
    expect(status.body).toMatchObject({
      state: 'waiting',
      calendar: {
        url: `${cal}/zurich-ai/events/ical/`,
        platform: 'ical',
        name: 'Zurich AI',
        city: 'Zürich',
        country: 'ch',
        preview: { state: 'ok', events: 2, alreadySynced: null, places: { calendar: 2 } },
      },
    });
    // Meetup's 2026 export names no place: its events are in the city they were proposed with.
    expect(status.body.calendar.preview.upcoming).toEqual([
      expect.objectContaining({
        title: 'Zurich AI: evals night',
        start: '2026-12-03T17:30:00.000Z',
        place: 'Zürich',
        placeFrom: 'calendar',
        online: false,
        url: expect.stringContaining('/zurich-ai/events/502/'),
      }),
      expect.objectContaining({ title: 'Zurich AI: December social', placeFrom: 'calendar' }),
    ]);
    expect(await listed()).toEqual([]);
  });

  it('a calendar with places of its own previews them as the events say', async () => {
    const res = await propose({ url: `webcal://127.0.0.1:${new URL(cal).port}/basel-rust/events/ical/` });
    expect(res.status).toBe(202);
    const status = await read(res.body.id);
    expect(status.body.calendar.url).toBe(`https://127.0.0.1:${new URL(cal).port}/basel-rust/events/ical/`);
    // webcal means https, which the stand-in does not speak: a failing read, kept as such.
    expect(status.body.calendar.preview.state).toBe('failing');
    const plain = await propose({ url: `${cal}/basel-rust/events/ical/` });
    const preview = (await read(plain.body.id)).body.calendar.preview;
    expect(preview).toMatchObject({ state: 'ok', events: 1, places: { event: 1 } });
    expect(preview.upcoming[0]).toMatchObject({ placeFrom: 'event', place: expect.stringContaining('Markthalle') });
  });

  it('the same calendar proposed again is the same proposal (200)', async () => {
    const again = await propose({ url: `${cal}/zurich-ai/events/ical/#again`, city: 'Basel' });
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(zurich);
    expect(again.headers.get('location')).toBeNull();
  });

  it('refuses a private address without connecting, and stores nothing', async () => {
    const port = new URL(cal).port;
    const before = host.connections();
    for (const url of ['http://10.1.2.3/calendar.ics', `http://127.0.0.2:${port}/zurich-ai/events/ical/`]) {
      const res = await propose({ url });
      expect(res.status, url).toBe(422);
      expect(res.body.errors).toEqual([{ field: 'url', message: expect.stringMatching(/^is refused: .* private/) }]);
    }
    expect(host.connections()).toBe(before);
    const all = (await api('/api/admin/proposals', { key: ADMIN })).body.proposals;
    expect(all.map((p: { calendar?: { url: string } }) => p.calendar?.url)).not.toContain(
      'http://10.1.2.3/calendar.ics',
    );
  });

  it('refuses what is no calendar address, and fields outside the text policy', async () => {
    for (const body of [
      { url: 'ftp://example.org/x.ics' },
      { url: `${cal}/ok.ics`, name: 'A\u0000B' },
      { url: `${cal}/ok.ics`, city: 'Atlantis' },
      { url: `${cal}/ok.ics`, email: 'me@example.org' },
      {},
    ]) {
      const res = await propose(body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.code).toBe('invalid-request');
    }
  });

  it('previews a page that is not iCal, and a failing calendar, as such', async () => {
    const page = await read((await propose({ url: `${cal}/page` })).body.id);
    expect(page.body.calendar.preview).toMatchObject({ state: 'not iCal', events: 0, upcoming: [] });
    const broken = await read((await propose({ url: `${cal}/broken.ics` })).body.id);
    expect(broken.body.calendar.preview).toMatchObject({ state: 'failing', error: expect.stringMatching(/500/) });
  });

  it('the admin API needs the admin token', async () => {
    expect((await api('/api/admin/proposals')).status).toBe(401);
    expect((await api('/api/admin/proposals', { key: 'wrong' })).status).toBe(401);
    expect((await api(`/api/admin/proposals/${zurich}/accept`, { method: 'POST' })).status).toBe(401);
  });

  it('an accepted calendar is read at once, synced on, and listed in /api/sources as its community’s', async () => {
    const queue = await api('/api/admin/proposals?state=waiting&kind=calendar', { key: ADMIN });
    expect(queue.body.proposals.map((p: { id: string }) => p.id)).toContain(zurich);
    const accepted = await admin(`/${zurich}/accept`);
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({
      state: 'accepted',
      // Its past event too, as any sync keeps it.
      sync: { created: 3 },
      log: [{ action: 'accept', actor: 'admin-api', reason: null }],
    });
    expect((await listed()).map((e) => e.title).sort()).toEqual([
      'Zurich AI: December social',
      'Zurich AI: evals night',
    ]);
    const { run } = await adminSync(svc.base, ADMIN);
    expect(run.body.state).toBe('done');
    // Read again after the feeds; unchanged since its first read, it changes nothing.
    expect(run.body.feeds).toContainEqual(expect.objectContaining({ source: 'community', created: 0, cancelled: 0 }));
    expect(await listed()).toHaveLength(2);
    const sources = (await api('/api/sources')).body.sources as Record<string, any>[];
    const community = sources.find((s) => s.source === 'community')!;
    expect(community.counts.listed).toBe(2);
    expect(community.calendars).toEqual([
      expect.objectContaining({
        id: zurich,
        name: 'Zurich AI',
        city: 'Zürich',
        state: 'ok',
        proposedBy: 'community',
        acceptedAt: accepted.body.decidedAt,
        counts: { listed: 2, cancelled: 0 },
      }),
    ]);
    const page = await api('/sources');
    expect(page.text).toContain('proposed by its community, accepted on');
    expect((await api('/sources?hl=de')).text).toContain('von seiner Community vorgeschlagen, aufgenommen am');
    const twice = await admin(`/${zurich}/accept`);
    expect(twice.status).toBe(409);
    expect(twice.body.code).toBe('proposal-decided');
  });

  it('a calendar the catalogue syncs already says so, and is not accepted', async () => {
    const key = await svc.createKey('Linked host', 'ch');
    const link = await api('/api/calendars', { key, json: { url: `${cal}/linked/events/ical/` } });
    expect([201, 202]).toContain(link.status);
    const proposed = await read((await propose({ url: `${cal}/linked/events/ical/` })).body.id);
    expect(proposed.body.calendar.preview.alreadySynced).toEqual({ source: 'host', calendar: link.body.id });
    const refused = await admin(`/${proposed.body.id}/accept`);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('already-synced');
    expect((await api(`/api/proposals/${proposed.body.id}`)).body.state).toBe('waiting');
  });

  it('a rejection shows its reason at the status URL and lists nothing', async () => {
    const proposed = await read((await propose({ url: `${cal}/basel-rust/events/ical/` })).body.id);
    const id = proposed.body.id;
    expect((await admin(`/${id}/reject`, {})).status).toBe(422);
    const rejected = await admin(`/${id}/reject`, { reason: 'Not a tech community.' });
    expect(rejected.status).toBe(200);
    const status = await api(`/api/proposals/${id}`);
    expect(status.body).toMatchObject({ state: 'rejected', reason: 'Not a tech community.' });
    expect((await listed()).some((e) => e.title.startsWith('Rust Basel'))).toBe(false);
    expect((await admin(`/${id}/accept`)).status).toBe(409);
    const detail = await api(`/api/admin/proposals/${id}`, { key: ADMIN });
    expect(detail.body.log).toEqual([
      { at: expect.any(String), actor: 'admin-api', action: 'reject', reason: 'Not a tech community.' },
    ]);
  });

  it('removal retires the calendar’s upcoming events; their pages answer as a retired event’s', async () => {
    const before = await listed();
    expect(before).toHaveLength(2);
    const removed = await admin(`/${zurich}/remove`, { reason: 'The group has moved to another platform.' });
    expect(removed.status).toBe(200);
    expect(removed.body).toMatchObject({ state: 'removed', retired: 2 });
    expect(removed.body.log.map((e: { action: string }) => e.action)).toEqual(['accept', 'remove']);
    expect(await listed()).toEqual([]);
    for (const event of before) {
      const json = await api(`/api/events/${event.id}`);
      expect(json.status).toBe(200);
      expect(json.body.lifecycle).toBe('cancelled');
      const page = await api(`/ch/events/${event.id}`);
      expect(page.status).toBe(200);
    }
    // Not synced any more: the next sync leaves them retired.
    const { run } = await adminSync(svc.base, ADMIN);
    expect(run.body.feeds.map((f: { source: string }) => f.source)).not.toContain('community');
    expect(await listed()).toEqual([]);
    expect((await api(`/api/proposals/${zurich}`)).body).toMatchObject({
      state: 'removed',
      reason: 'The group has moved to another platform.',
    });
  });

  it('a key request, accepted, shows its key once; the key pushes events', async () => {
    const asked = await api('/api/keys/requests', {
      json: { organisation: 'Zürich Rust Collective', country: 'ch', plans: 'Our monthly meetups, from our own site.' },
    });
    expect(asked.status).toBe(202);
    const id = asked.body.id;
    expect(asked.headers.get('location')).toBe(`${svc.base}/api/proposals/${id}`);
    expect(asked.body).toMatchObject({ kind: 'key', state: 'waiting', keyRequest: { keyId: null, keyShownAt: null } });
    expect((await api(`/api/proposals/${id}`)).body.keyRequest.key).toBeUndefined();

    const accepted = await admin(`/${id}/accept`);
    expect(accepted.status).toBe(200);
    expect(accepted.body.keyRequest.key).toBeUndefined();
    const keyId = accepted.body.keyRequest.keyId as string;
    // A HEAD request, which has no body to show it in, leaves the key for the next visit.
    expect((await api(`/api/proposals/${id}`, { method: 'HEAD' })).status).toBe(200);
    // Concurrent first visits: exactly one sees the key.
    const visits = await Promise.all(Array.from({ length: 5 }, () => api(`/api/proposals/${id}`)));
    const shown = visits.filter((v) => v.body.keyRequest.key !== undefined);
    expect(shown).toHaveLength(1);
    const key = shown[0]!.body.keyRequest.key as string;
    expect(key).toMatch(new RegExp(`^tev_${keyId}_[A-Za-z0-9_-]{43}$`));
    const later = await api(`/api/proposals/${id}`);
    expect(later.body.keyRequest).toMatchObject({ keyId, keyShownAt: expect.any(String) });
    expect(later.body.keyRequest.key).toBeUndefined();
    expect(later.text).not.toContain(key);

    const pushed = await api('/api/events', {
      key,
      json: { title: 'Rust Zürich: async', startAt: '2026-12-08T18:30:00+01:00', city: 'Zürich', venue: 'ETH' },
    });
    expect(pushed.status, pushed.text).toBe(201);
    const event = await api(`/api/events/${pushed.body.id}`);
    expect(event.body).toMatchObject({ title: 'Rust Zürich: async', organizer: 'Zürich Rust Collective' });
  });

  it('refuses key requests outside the text policy, and asks for no personal data', async () => {
    for (const json of [
      { organisation: '', country: 'ch', plans: 'x' },
      { organisation: 'A', country: 'fr', plans: 'x' },
      { organisation: 'A', country: 'ch', plans: '\u200b' },
      { organisation: 'A', country: 'ch', plans: 'x', email: 'me@example.org' },
      { organisation: 'A', country: 'ch', plans: 'x', website: 'javascript:alert(1)' },
    ]) {
      const res = await api('/api/keys/requests', { json });
      expect(res.status, JSON.stringify(json)).toBe(422);
    }
  });

  it('no table holds a proposer’s address or contact', async () => {
    const columns = await svc.service.ctx.storage.db
      .selectFrom('information_schema.columns' as never)
      .select(['table_name as table', 'column_name as column'] as never)
      .where('table_name' as never, 'in', ['proposals', 'moderation_log'] as never)
      .execute();
    const names = (columns as { column: string }[]).map((c) => c.column);
    expect(names).toContain('organisation');
    expect(names.filter((n) => /ip|address|mail|phone|client/.test(n))).toEqual([]);
  });

  it('takes no more proposals while too many wait (503, Retry-After)', async () => {
    const waiting = await svc.service.ctx.proposals.pending();
    for (let i = waiting; i < MAX_PENDING_PROPOSALS; i++)
      await svc.service.ctx.proposals.create({
        kind: 'key',
        state: 'waiting',
        country: 'ch',
        organisation: `o${i}`,
        plans: 'p',
      });
    const res = await api('/api/keys/requests', { json: { organisation: 'One too many', country: 'ch', plans: 'x' } });
    expect(res.status).toBe(503);
    expect(res.body.code).toBe('proposals-full');
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    const calendar = await propose({ url: `${cal}/group-full/events/ical/` });
    expect(calendar.status).toBe(503);
  }, 60_000);
});

describe('a calendar the feeds file syncs already', () => {
  const host = communityHost();
  let svc: TestServer;
  let dir: string;

  afterAll(async () => {
    await svc?.close();
    await host.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is previewed as synced by its feed, and not accepted', async () => {
    const cal = await host.listen();
    dir = mkdtempSync(join(tmpdir(), 'tev-proposal-feeds-'));
    const feeds = join(dir, 'feeds.json');
    writeFileSync(
      feeds,
      JSON.stringify([
        {
          source: 'local-groups',
          format: 'ical',
          url: `${cal}/{group}/events/ical/`,
          each: { group: [{ id: 'zurich-ai' }] },
        },
      ]),
    );
    svc = await startTestServer('pglite', {
      now: NOW,
      env: { CALENDARS_ALLOW_PRIVATE_ADDRESSES: '127.0.0.1/32', ADMIN_TOKEN: ADMIN, FEEDS_FILE: feeds },
    });
    const proposed = await request(`${svc.base}/api/calendars/proposals`, {
      json: { url: `${cal}/zurich-ai/events/ical/` },
    });
    expect(proposed.status).toBe(202);
    let status = proposed;
    for (const until = Date.now() + 30_000; status.body.state === 'reading' && Date.now() < until; )
      status = await request(`${svc.base}/api/proposals/${proposed.body.id}`);
    expect(status.body.calendar.preview.alreadySynced).toEqual({ source: 'local-groups', calendar: 'zurich-ai' });
    const accept = await request(`${svc.base}/api/admin/proposals/${proposed.body.id}/accept`, {
      method: 'POST',
      key: ADMIN,
    });
    expect(accept.status).toBe(409);
    expect(accept.body.code).toBe('already-synced');
  });
});
