import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publicError, publicLocation, type SourcesView } from '../src/use-cases/list-sources.js';
import { ENGINES } from './helpers/engines.js';
import { spawnServer, waitForExit } from './helpers/process.js';
import { freePort, startTestServer, type TestServer } from './helpers/server.js';

const FIXTURES = new URL('./fixtures/', import.meta.url);
const NOW = '2026-11-01T12:00:00Z';

async function until<T>(probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** An address nothing listens on: what an offline machine's requests meet, without leaving it. */
async function closedPort(): Promise<string> {
  return `http://127.0.0.1:${await freePort()}`;
}

describe.each(ENGINES)('GET /api/sources and /sources on %s', (engine) => {
  const dir = mkdtempSync(join(tmpdir(), 'tev-sources-'));
  let upstream: Server;
  let release: () => void = () => {};
  let server: TestServer;

  beforeAll(async () => {
    // The confs.tech stand-in holds its answers until released: start-up must not wait for them.
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    upstream = createServer((req, res) => {
      const file = req.url?.match(/^\/conferences\/(\d{4}\/[a-z]+\.json)(?:\?.*)?$/)?.[1];
      const path = file && new URL(`confs-tech/${file}`, FIXTURES);
      void held.then(() => {
        let body: Buffer | undefined;
        try {
          body = readFileSync(path!);
        } catch {
          body = undefined;
        }
        if (body) res.writeHead(200).end(body);
        else res.writeHead(404).end();
      });
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    writeFileSync(join(dir, 'local.jsonl'), readFileSync(new URL('events.jsonl', FIXTURES)));
    writeFileSync(
      join(dir, 'feeds.json'),
      JSON.stringify([
        {
          source: 'confs',
          format: 'confs-tech',
          licence: 'MIT',
          about: 'https://github.com/tech-conferences/conference-data',
          url: `${base}/conferences/{year}/{topic}.json?token=secret`,
          each: { topic: ['data', 'devops'] },
        },
        { source: 'offline', format: 'ical', url: `${await closedPort()}/calendar.ics`, country: 'ch' },
        { source: 'partner', format: 'jsonl', url: 'local.jsonl' },
        {
          source: 'nc-data',
          format: 'developers-events',
          licence: 'CC-BY-NC-4.0',
          url: `${base}/all-events.json`,
          enabled: false,
        },
      ]),
    );
    // Resolves only once listening, and confs.tech's answers are held until the first test releases them: a
    // start-up that waited on the network would never get here.
    server = await startTestServer(engine, {
      now: NOW,
      env: { FEEDS_FILE: join(dir, 'feeds.json'), SYNC_INTERVAL_MINUTES: '360' },
    });
  });
  afterAll(async () => {
    release();
    await server?.close();
    upstream.closeAllConnections();
    await new Promise((resolve) => upstream.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  const sources = async () => (await (await fetch(`${server.base}/api/sources`)).json()) as SourcesView;

  it('syncs in the background after start-up and shows each source with its state', async () => {
    expect((await fetch(`${server.base}/healthz`)).status).toBe(200);
    const first = await sources();
    expect(first.sources.find((s) => s.source === 'confs')!.lastSuccess).toBeNull(); // still held
    release();
    const view = await until(async () => {
      const v = await sources();
      const done = v.sources.every((s) => !s.enabled || s.lastAttempt !== null);
      return done && v.sources.find((s) => s.source === 'confs')!.lastSuccess ? v : undefined;
    });
    expect(view.syncIntervalMinutes).toBe(360);
    expect(view.lastRefreshed).toBe(new Date(NOW).toISOString());
    const [confs, offline, partner, nc] = view.sources;
    expect(confs).toMatchObject({
      source: 'confs',
      kind: 'confs-tech',
      feed: true,
      enabled: true,
      licence: 'MIT',
      about: 'https://github.com/tech-conferences/conference-data',
      lastAttempt: new Date(NOW).toISOString(),
      lastSuccess: new Date(NOW).toISOString(),
      lastError: null,
      failures: 0,
      lastRun: { created: 4, elsewhere: 2, urls: 4, missing: 1 },
      counts: { listed: 3, cancelled: 0 }, // Berlin Buzzwords (June) is over
    });
    // Shown without its query string (private feed links carry tokens there).
    expect(confs!.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/conferences\/\{year\}\/\{topic\}\.json$/);
    expect(confs!.urls).toHaveLength(4);
    expect(JSON.stringify(view)).not.toContain('secret');
    expect(offline).toMatchObject({
      kind: 'ical',
      lastSuccess: null,
      failures: 1,
      lastError: expect.stringMatching(/ECONNREFUSED/),
      counts: { listed: 0, cancelled: 0 },
    });
    // A local file is shown by its name only.
    expect(partner).toMatchObject({ kind: 'jsonl', url: 'file:local.jsonl', lastError: null });
    expect(partner!.lastRun).toMatchObject({ created: 3, skipped: 3 });
    expect(nc).toMatchObject({ enabled: false, lastAttempt: null, licence: 'CC-BY-NC-4.0' });
  });

  it('lists sources outside the feeds file too: host pushes', async () => {
    const key = await server.createKey('Zürich AI Society', 'ch');
    const res = await fetch(`${server.base}/api/events`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'KI-Meetup', startAt: '2026-12-03T18:30:00+01:00', city: 'Zürich' }),
    });
    expect(res.status).toBe(201);
    const host = await until(async () => (await sources()).sources.find((s) => s.source === 'host'));
    expect(host).toMatchObject({ kind: 'host', feed: false, counts: { listed: 1, cancelled: 0 } });
  });

  it('shows the same as a page', async () => {
    const res = await fetch(`${server.base}/sources`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    const page = await res.text();
    expect(page).toContain('<h1>Sources</h1>');
    expect(page).toContain('Feeds are synced every 6 hours.');
    expect(page).toMatch(/<a href="https:\/\/github.com\/tech-conferences\/conference-data"><code>confs<\/code><\/a>/);
    // Never read yet: said so, with why the last try failed in words, where (a short link) and when the next one is.
    expect(page).toMatch(
      /not read yet: the server refused the connection \(<a href="http:\/\/127\.0\.0\.1:\d+\/calendar\.ics" class="url"><code>127\.0\.0\.1:\d+\/calendar\.ics<\/code><\/a>\); next try /,
    );
    expect(page).toContain('off (listed in the feeds file, not synced)');
    expect(page).not.toContain('secret');
  });
});

describe('an offline start of the shipped configuration', () => {
  it('is healthy at once, lists the shipped snapshots, logs the counts per country and each failing feed once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tev-offline-'));
    // The shipped feeds file, its public URLs replaced by an address where nothing answers: offline, on loopback.
    const offline = await closedPort();
    const shipped = readFileSync(new URL('../feeds.json', import.meta.url), 'utf8')
      .replace(/"url": "https:\/\/[^/"]+/g, `"url": "${offline}`)
      .replace(/"seed": "/g, `"seed": "${new URL('..', import.meta.url).pathname}`);
    writeFileSync(join(dir, 'feeds.json'), shipped);
    const started = performance.now();
    const server = await spawnServer(
      {
        DATA_DIR: join(dir, 'data'),
        FEEDS_FILE: join(dir, 'feeds.json'),
        SEED: '1',
        SYNC_INTERVAL_MINUTES: '360',
        TECH_EVENTS_NOW: '2026-11-23T12:00:00Z',
      },
      await freePort(),
    );
    try {
      const seconds = (performance.now() - started) / 1000;
      const view = await until(async () => {
        const v = (await (await fetch(`${server.base}/api/sources`)).json()) as SourcesView;
        return v.sources.slice(0, 4).every((s) => s.lastError) ? v : undefined;
      });
      expect(view.sources.map((s) => [s.source, s.snapshot?.of, s.counts.listed, s.dataAsOf])).toEqual([
        ['confs-tech', '2026-12-01', 16, '2026-12-01'],
        ['devopsdays', '2026-11-23', 2, '2026-11-23'],
        ['meetup', undefined, 0, null],
        ['community-calendars', undefined, 0, null],
        ['developers-events', undefined, 0, null],
      ]);
      // Every calendar of the collection is named with its state, none with a URL outside this machine reached.
      const meetup = view.sources.find((s) => s.source === 'meetup')!;
      expect(meetup.calendars!.length).toBeGreaterThanOrEqual(60);
      expect(meetup.calendars!.every((c) => c.state === 'failing' && /ECONNREFUSED/.test(c.lastError!))).toBe(true);
      const ch = (await (await fetch(`${server.base}/api/events?country=ch`)).json()) as { total: number };
      expect(ch.total).toBe(3);
      const log = server.output();
      expect(log).toMatch(/"ch":3,"de":15,"at":0,"msg":"upcoming events per country"/);
      expect(log.match(/feed confs-tech failed; serving its last good state/g)).toHaveLength(1);
      expect(log.match(/feed devopsdays failed; serving its last good state/g)).toHaveLength(1);
      expect(log.match(/feed meetup failed; serving its last good state/g)).toHaveLength(1);
      // Start-up (a first one: database created, 205 events seeded) never waited on the network.
      expect(seconds).toBeLessThan(60);
    } finally {
      server.child.kill('SIGTERM');
      await waitForExit(server.child);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('sources as shown publicly', () => {
  it('shows URLs without query strings or credentials, and files by their name only', () => {
    expect(publicLocation('https://user:pw@cal.example/private/{year}.ics?token=abc')).toBe(
      'https://cal.example/private/{year}.ics',
    );
    expect(publicLocation('/srv/feeds/partner.jsonl')).toBe('file:partner.jsonl');
    expect(
      publicError('GET https://cal.example/x.ics?token=abc answered HTTP 500. Also /srv/feeds/a.ics: no such file'),
    ).toBe('GET https://cal.example/x.ics answered HTTP 500. Also file:a.ics: no such file');
    expect(publicError('none of its 4 URLs exists (e.g. https://x.example/2026/a.json?k=1 answered 404)')).toBe(
      'none of its 4 URLs exists (e.g. https://x.example/2026/a.json answered 404)',
    );
  });
});
