import { createHmac } from 'node:crypto';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { createContext } from '../src/context.js';
import { loadDemoCatalogue } from '../src/demo/load.js';
import { createLogger } from '../src/observability/logger.js';
import { openStorage } from '../src/storage/database.js';
import { createDataDir } from './helpers/engines.js';
import { allEvents, request } from './helpers/http.js';
import { connectMcp } from './helpers/mcp.js';
import { startTestServer, type TestServer } from './helpers/server.js';

/**
 * Cursor pagination of GET /api/events (and the MCP search tools): `next` and `Link: rel="next"` lead through every
 * matching event exactly once, in the order of one large call; after a change between pages, no event comes twice.
 */
const NOW = '2026-01-05T09:00:00Z';

interface Page {
  events: { id: string; title: string }[];
  total: number;
  next?: string;
}

describe('cursor pagination', () => {
  let server: TestServer;
  let dir: string;
  let key: string;

  beforeAll(async () => {
    dir = createDataDir('tev-pages-');
    const config = loadConfig({ DATA_DIR: dir, TECH_EVENTS_NOW: NOW, LOG_LEVEL: 'silent' });
    const storage = await openStorage({ dataDir: config.dataDir });
    await loadDemoCatalogue(createContext(config, storage, createLogger('silent')), 2000, { seed: 11 });
    await storage.close();
    server = await startTestServer('pglite', { now: NOW, storageEnv: { DATA_DIR: dir } });
    key = await server.createKey('Paging Host', 'de');
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Every page from `url` on, following `next`. */
  async function follow(url: string): Promise<Page[]> {
    const pages: Page[] = [];
    let next: string | undefined = url;
    while (next) {
      const res: Awaited<ReturnType<typeof request<Page>>> = await request<Page>(next, {});
      expect(res.status, res.text).toBe(200);
      pages.push(res.body);
      const link = res.headers.get('link');
      if (res.body.next) expect(link).toBe(`<${res.body.next}>; rel="next"`);
      else expect(link).toBeNull();
      next = res.body.next;
      expect(pages.length).toBeLessThan(100);
    }
    return pages;
  }

  for (const [name, query] of [
    ['a listing without q', 'country=de'],
    ['a ranked prompt', `country=de&q=${encodeURIComponent('data')}`],
  ] as const) {
    it(`leads through every event of ${name} exactly once, in the order of one large call`, async () => {
      const pages = await follow(`${server.base}/api/events?${query}&limit=25`);
      const ids = pages.flatMap((p) => p.events.map((e) => e.id));
      expect(pages[0]!.total).toBeGreaterThan(100);
      expect(ids.length).toBe(pages[0]!.total);
      expect(new Set(ids).size).toBe(ids.length);
      expect(pages.slice(0, -1).every((p) => p.events.length === 25)).toBe(true);
      const large = await request<Page>(`${server.base}/api/events?${query}&limit=100`);
      expect(ids.slice(0, 100)).toEqual(large.body.events.map((e) => e.id));
      // The last page of 100 ends where a walk of pages of 100 ends too.
      const byHundred = (await follow(`${server.base}/api/events?${query}&limit=100`)).flatMap((p) =>
        p.events.map((e) => e.id),
      );
      expect(byHundred).toEqual(ids);
    });
  }

  it('refuses a cursor of an earlier version (scores in weights) as not one of ours', async () => {
    const url = `${server.base}/api/events?country=de&q=${encodeURIComponent('data')}&limit=25`;
    const first = await request<Page>(url);
    const cursor = new URL(first.body.next!).searchParams.get('cursor')!;
    // The same cursor as version 1 wrote it: its score in weights, signed with the shared secret.
    const data = JSON.parse(Buffer.from(cursor.split('.')[0]!, 'base64url').toString('utf8'));
    expect(data.v).toBe(2);
    const payload = Buffer.from(
      JSON.stringify({ ...data, v: 1, k: [data.k[0] / 1000, data.k[1], data.k[2]] }),
    ).toString('base64url');
    const secret = server.service.ctx.cursorSecret;
    const signature = createHmac('sha256', secret).update(payload).digest().subarray(0, 16).toString('base64url');
    const next = new URL(first.body.next!);
    next.searchParams.set('cursor', `${payload}.${signature}`);
    const old = await request(next.toString());
    expect(old.status).toBe(422);
    expect(old.body.errors[0].field).toBe('cursor');
    expect(old.body.errors[0].message).toBe('is not a cursor of ours');
  });

  it('refuses a tampered cursor, and one used with other parameters', async () => {
    const first = await request<Page>(`${server.base}/api/events?country=de&q=rust&limit=5`);
    const next = new URL(first.body.next!);
    const cursor = next.searchParams.get('cursor')!;
    const tampered = `${cursor.slice(0, 20)}${cursor[20] === 'A' ? 'B' : 'A'}${cursor.slice(21)}`;
    const bad = await request(`${server.base}/api/events?country=de&q=rust&limit=5&cursor=${tampered}`);
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].field).toBe('cursor');
    const other = await request(`${server.base}/api/events?country=de&q=python&cursor=${encodeURIComponent(cursor)}`);
    expect(other.status).toBe(422);
    expect(other.body.detail).toMatch(/another query/);
    expect((await request(`${server.base}/api/events?country=de&cursor=nonsense`)).status).toBe(422);
    // The limit may change from page to page.
    const wider = await request<Page>(`${next.toString().replace('limit=5', 'limit=7')}`);
    expect(wider.status).toBe(200);
    expect(wider.body.events).toHaveLength(7);
  });

  it('never serves an event twice when the catalogue changes between pages', async () => {
    const push = (externalId: string, title: string, startAt = '2026-01-20T18:00:00+01:00') =>
      request(`${server.base}/api/events`, { key, json: { externalId, title, startAt, city: 'Berlin' } });
    for (let i = 0; i < 3; i++) expect((await push(`top-${i}`, `Kubernetes Workshop Berlin ${i}`)).status).toBe(201);
    const url = `${server.base}/api/events?country=de&q=${encodeURIComponent('Kubernetes')}&limit=20`;
    const first = await request<Page>(url);
    const served = first.body.events.map((e) => e.id);
    expect(served).toContain('kubernetes-workshop-berlin-0');
    // Between the pages: a served event renamed so that it now ranks far down, and new events that rank first.
    expect((await push('top-0', 'Workshop Kubernetes (moved)', '2026-06-20T18:00:00+02:00')).status).toBe(200);
    for (let i = 0; i < 5; i++)
      expect((await push(`late-${i}`, `Kubernetes Workshop Berlin late ${i}`)).status).toBe(201);
    const rest = await follow(first.body.next!);
    const later = rest.flatMap((p) => p.events.map((e) => e.id));
    expect(later.filter((id) => served.includes(id))).toEqual([]);
    expect(new Set(later).size).toBe(later.length);
    expect(later.length).toBeGreaterThan(0);
  });

  it('pages a host’s own events (mine=1), and the MCP search tools take and give cursors', async () => {
    for (let i = 0; i < 60; i++) {
      await request(`${server.base}/api/events`, {
        key,
        json: { externalId: `own-${i}`, title: `Own ${i}`, startAt: '2026-02-01T18:00:00+01:00', city: 'Köln' },
      });
    }
    const mine = (await allEvents<{ id: string }>(`${server.base}/api/events?mine=1&limit=25`, { key })).map(
      (e) => e.id,
    );
    // 60 here, and the 8 of the test before.
    expect(mine.length).toBe(68);
    expect(new Set(mine).size).toBe(68);
    expect((await request(`${server.base}/api/events?mine=1&limit=25`, { key })).body.total).toBe(68);

    const mcp = await connectMcp(server.base);
    type List = { events: { id: string }[]; cursor?: string; total: number };
    const one = (await mcp.callTool({ name: 'find_events', arguments: { country: 'at', limit: 30 } }))
      .structuredContent as List;
    const two = (
      await mcp.callTool({ name: 'find_events', arguments: { country: 'at', limit: 30, cursor: one.cursor } })
    ).structuredContent as List;
    const large = await request<Page>(`${server.base}/api/events?country=at&limit=60`);
    expect([...one.events, ...two.events].map((e) => e.id)).toEqual(large.body.events.map((e) => e.id));
    await mcp.close();
  });
});
