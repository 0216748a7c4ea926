import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminSync, request } from './helpers/http.js';
import { startTestServer, type TestServer } from './helpers/server.js';

/** What operators watch: liveness, readiness, and Prometheus metrics of requests, the catalogue, writes and caching. */
describe('operations endpoints', () => {
  let server: TestServer;
  let key: string;

  beforeAll(async () => {
    server = await startTestServer('pglite', { now: '2026-11-23T09:00:00Z' });
    key = await server.createKey('Ops Host', 'de');
  });
  afterAll(async () => {
    await server?.close();
  });

  it('answers liveness and readiness separately', async () => {
    expect((await request(`${server.base}/healthz`)).body).toEqual({ status: 'ok', engine: 'pglite' });
    const ready = await request(`${server.base}/readyz`);
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({ status: 'ready', checks: { storage: true, index: true } });
    expect(ready.headers.get('cache-control')).toBe('private, no-store');
  });

  it('counts requests by route and status, events per country, writes and response-cache hits', async () => {
    const write = await request(`${server.base}/api/events`, {
      key,
      json: { externalId: 'ops-1', title: 'Ops Meetup', startAt: '2026-12-03T18:30:00+01:00', city: 'Berlin' },
    });
    expect(write.status).toBe(201);
    for (let i = 0; i < 3; i++) expect((await request(`${server.base}/api/events?country=de`)).status).toBe(200);
    expect((await request(`${server.base}/api/events?country=zz`)).status).toBe(422);
    const res = await request(`${server.base}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    const lines = res.text.split('\n');
    const value = (prefix: string) =>
      Number(
        lines
          .find((l) => l.startsWith(prefix))
          ?.split(' ')
          .at(-1),
      );
    expect(value('http_requests_total{method="GET",route="/api/events",status="200"}')).toBe(3);
    expect(value('http_requests_total{method="GET",route="/api/events",status="422"}')).toBe(1);
    expect(value('http_requests_total{method="POST",route="/api/events",status="201"}')).toBe(1);
    expect(value('http_request_duration_seconds_count{method="GET",route="/api/events"}')).toBe(4);
    expect(value('catalogue_events{country="de"}')).toBe(1);
    expect(value('catalogue_events{country="ch"}')).toBe(0);
    expect(value('catalogue_writes_total{action="create"}')).toBe(1);
    // The first read is kept from the second time its URL is asked for, and answered from the cache the third time.
    expect(value('response_cache_lookups_total{result="hit"}')).toBe(1);
    expect(value('process_resident_memory_bytes')).toBeGreaterThan(0);
  });

  it('counts and logs a request whose client left before its answer as 499, as nginx does', async () => {
    const count = async () => {
      const text = (await request(`${server.base}/metrics`)).text;
      return Number(
        text.match(/^http_requests_total\{method="POST",route="\/api\/events",status="499"\} (\d+)/m)?.[1] ?? 0,
      );
    };
    expect(await count()).toBe(0);
    // A body announced and never sent in full: the client goes while the service still reads it.
    const socket = connect(Number(new URL(server.base).port), '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(
      `POST /api/events HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${key}\r\n` +
        'Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"title":',
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    socket.destroy();
    await expect.poll(count, { timeout: 5_000 }).toBe(1);
  });

  it('keeps a body only once its URL is asked for a second time, so one-off prompts push nothing out', async () => {
    const lookups = async () => {
      const text = (await request(`${server.base}/metrics`)).text;
      const count = (result: string) =>
        Number(text.match(new RegExp(`^response_cache_lookups_total\\{result="${result}"\\} (\\d+)`, 'm'))?.[1] ?? 0);
      return { hit: count('hit'), miss: count('miss') };
    };
    const url = `${server.base}/api/events?country=de&q=${encodeURIComponent('Ops Meetup asked three times')}`;
    const before = await lookups();
    const bodies: string[] = [];
    for (let i = 0; i < 3; i++) bodies.push((await request(url)).text);
    const after = await lookups();
    expect(after.miss - before.miss).toBe(2);
    expect(after.hit - before.hit).toBe(1);
    expect(new Set(bodies).size).toBe(1);
  });
});

/** POST /api/admin/sync: the feeds file as it is now, each run counted in /metrics by source and outcome. */
describe('syncing on demand', () => {
  let server: TestServer;
  const dir = mkdtempSync(join(tmpdir(), 'tev-ops-sync-'));
  const feedsFile = join(dir, 'feeds.json');
  const lines = join(dir, 'events.jsonl');
  const admin = 'ops-admin-token';

  beforeAll(async () => {
    writeFileSync(feedsFile, '[]');
    server = await startTestServer('pglite', {
      now: '2026-11-23T09:00:00Z',
      env: { FEEDS_FILE: feedsFile, ADMIN_TOKEN: admin },
    });
  });
  afterAll(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads the feeds file anew, syncs each feed and counts the runs that worked and failed', async () => {
    writeFileSync(
      lines,
      JSON.stringify({
        externalId: 'sync-1',
        title: 'Synced Meetup',
        startAt: '2026-12-03T18:30:00+01:00',
        city: 'Köln',
      }),
    );
    // Edited after start-up: the sync reads it as it is now.
    writeFileSync(
      feedsFile,
      JSON.stringify([
        { source: 'ops-ok', format: 'jsonl', url: lines },
        { source: 'ops-missing', format: 'jsonl', url: join(dir, 'missing.jsonl') },
      ]),
    );
    expect((await request(`${server.base}/api/admin/sync`, { method: 'POST' })).status).toBe(401);
    const { started, run: sync } = await adminSync(server.base, admin);
    expect(started.status).toBe(202);
    expect(started.headers.get('location')).toBe(`${server.base}/api/admin/sync/${started.body.id}`);
    expect(sync.status).toBe(200);
    expect(sync.body).toMatchObject({ id: started.body.id, state: 'done', progress: { feeds: 2, feedsDone: 2 } });
    expect(sync.body.feeds).toEqual([
      { source: 'ops-ok', created: 1, updated: 0, unchanged: 0, cancelled: 0, restored: 0, skipped: 0 },
      { source: 'ops-missing', error: expect.any(String) },
    ]);
    const metrics = (await request(`${server.base}/metrics`)).text;
    expect(metrics).toContain('feed_sync_runs_total{source="ops-ok",outcome="ok"} 1');
    expect(metrics).toContain('feed_sync_runs_total{source="ops-missing",outcome="failed"} 1');

    writeFileSync(feedsFile, '{ not json');
    const broken = await request(`${server.base}/api/admin/sync`, { method: 'POST', key: admin });
    expect(broken.status).toBe(400);
    expect(broken.body.detail).toMatch(/feeds/i);
  });
});
