import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { parseFeed } from '@rowanmanning/feed-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminSync, request } from './helpers/http.js';
import { connectMcp } from './helpers/mcp.js';
import { startTestServer, type TestServer } from './helpers/server.js';

/**
 * Two services in one process, each with its own clock, feeds and catalogue: whatever a service keeps while it runs
 * (its read index and the answers it keeps, the pages' freshness line, the cancelled events its feeds match, its
 * turns at other people's servers) is its own, so each answers from its own data at its own "now".
 */
const ADMIN = 'two-services-admin-token-0123456789';

interface Side {
  name: 'alpha' | 'beta';
  now: string;
  /** The day its sync ran by its own clock, as /api/sources and the pages' freshness line say. */
  day: RegExp;
  /** The pages' freshness line: its own source, synced at its own "now". */
  footer: RegExp;
  /** What `understood` says of "next week" on that clock. */
  nextWeek: RegExp;
  events: Record<string, unknown>[];
  server?: TestServer;
  mcp?: Client;
}

const line = (externalId: string, title: string, startAt: string, extra: Record<string, unknown> = {}) => ({
  externalId,
  title,
  startAt,
  city: 'Zürich',
  topics: ['ai-ml'],
  price: 'free',
  ...extra,
});

/** In both catalogues: upcoming on alpha's clock (March), long over on beta's (September). */
const SPRING = line('spring', 'Shared Spring Conference', '2026-04-15T09:00:00+02:00', { topics: ['web'] });

const sides: Side[] = [
  {
    name: 'alpha',
    now: '2026-03-02T08:00:00Z',
    day: /2026-03-02/,
    footer: /^Data as of: <a href="\/sources"><code>alpha<\/code><\/a> 2 Mar 2026, 09:00 CET\./,
    nextWeek: /next week \(9.15 Mar 2026\)/,
    events: [
      line('a-ai', 'Alpha AI Meetup', '2026-03-10T18:30:00+01:00'),
      line('a-rust', 'Alpha Rust Night', '2026-03-25T18:30:00+01:00', { topics: ['programming-languages'] }),
      SPRING,
    ],
  },
  {
    name: 'beta',
    now: '2026-09-01T08:00:00Z',
    day: /2026-09-01/,
    footer: /^Data as of: <a href="\/sources"><code>beta<\/code><\/a> 1 Sept 2026, 10:00 CEST\./,
    nextWeek: /next week \(7.13 Sep 2026\)/,
    events: [line('b-ai', 'Beta AI Meetup', '2026-09-09T18:30:00+02:00'), SPRING],
  },
];

const titles = (events: { title: string }[]) => events.map((e) => e.title);

describe('two services in one process', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tev-two-services-'));
  // Where both read their feeds: each service's reads of it go through its own HTTP reader.
  const feedHost = createServer((req, res) => {
    const side = sides.find((s) => req.url === `/${s.name}.jsonl`);
    if (!side) return res.writeHead(404).end();
    res
      .writeHead(200, { 'content-type': 'application/jsonl' })
      .end(side.events.map((e) => JSON.stringify(e)).join('\n'));
  });

  beforeAll(async () => {
    await new Promise<void>((resolve) => feedHost.listen(0, '127.0.0.1', resolve));
    const host = `http://127.0.0.1:${(feedHost.address() as AddressInfo).port}`;
    for (const side of sides) {
      const feeds = join(dir, `${side.name}-feeds.json`);
      const feed = { source: side.name, format: 'jsonl', url: `${host}/${side.name}.jsonl`, country: 'ch' };
      writeFileSync(feeds, JSON.stringify([feed]));
      side.server = await startTestServer('pglite', {
        now: side.now,
        env: { FEEDS_FILE: feeds, ADMIN_TOKEN: ADMIN },
      });
    }
    // Both at once: each syncs its own feeds file, at its own "now".
    const runs = await Promise.all(sides.map((side) => adminSync(side.server!.base, ADMIN)));
    for (const { run } of runs) expect(run.body.state).toBe('done');
    for (const side of sides) side.mcp = await connectMcp(side.server!.base);
  }, 120_000);

  afterAll(async () => {
    for (const side of sides) {
      await side.mcp?.close();
      await side.server?.close();
    }
    await new Promise((resolve) => feedHost.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  it('list their own events, upcoming by their own clocks', async () => {
    const [alpha, beta] = await Promise.all(
      sides.map((side) => request(`${side.server!.base}/api/events?country=ch&limit=50`)),
    );
    expect(titles(alpha!.body.events)).toEqual(['Alpha AI Meetup', 'Alpha Rust Night', 'Shared Spring Conference']);
    // The spring conference is in beta's catalogue too, but over by beta's September.
    expect(titles(beta!.body.events)).toEqual(['Beta AI Meetup']);
  });

  it('rank a prompt against their own week, and keep each answer apart, over HTTP and MCP', async () => {
    const path = '/api/events?q=AI%20meetup%20next%20week&country=ch';
    for (let round = 0; round < 2; round++) {
      // The same URL and the same MCP call on both, twice: the second answers are kept ones (the response cache, the
      // door's first pages), and each service's are its own.
      for (const side of sides) {
        const res = await request(`${side.server!.base}${path}`);
        expect(res.body.understood, `${side.name}, round ${round}`).toMatch(side.nextWeek);
        expect(titles(res.body.events)).toEqual([side.name === 'alpha' ? 'Alpha AI Meetup' : 'Beta AI Meetup']);
        const call = await side.mcp!.callTool({
          name: 'search_events',
          arguments: { q: 'AI meetup next week', country: 'ch' },
        });
        const found = call.structuredContent as { understood: string; events: { title: string }[] };
        expect(found.understood).toMatch(side.nextWeek);
        expect(titles(found.events)).toEqual(titles(res.body.events));
      }
    }
  });

  it('say how old their own sources are, by their own clocks', async () => {
    for (const side of sides) {
      const page = await request(`${side.server!.base}/ch?hl=en`);
      expect(page.status).toBe(200);
      const footer = page.text.slice(page.text.indexOf('Data as of'));
      const other = side.name === 'alpha' ? 'beta' : 'alpha';
      expect(footer).toMatch(side.footer);
      expect(footer).not.toContain(`<code>${other}</code>`);
      const sources = await request(`${side.server!.base}/api/sources`);
      const own = sources.body.sources.find((s: { source: string }) => s.source === side.name);
      expect(own.lastSuccess).toMatch(side.day);
    }
  });

  it('feed their own events and their own cancellations', async () => {
    const alpha = sides[0]!.server!;
    const key = await alpha.createKey('Alpha Host', 'ch');
    const workshop = line('a-workshop', 'Alpha Cancelled Workshop', '2026-03-20T18:30:00+01:00');
    expect((await request(`${alpha.base}/api/events`, { key, json: workshop })).status).toBe(201);
    expect((await request(`${alpha.base}/api/events?externalId=a-workshop`, { key, method: 'DELETE' })).status).toBe(
      200,
    );
    for (const side of sides) {
      const res = await request(`${side.server!.base}/ch.atom`);
      expect(res.status).toBe(200);
      const items = parseFeed(res.text).items;
      const names = items.map((i) => i.title?.split(' · ')[0]);
      if (side.name === 'alpha')
        expect(names).toEqual(
          expect.arrayContaining(['Cancelled: Alpha Cancelled Workshop', 'Alpha AI Meetup', 'Alpha Rust Night']),
        );
      else expect(names).toEqual(['Beta AI Meetup']);
    }
  });
});
