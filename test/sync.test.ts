import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sourceOwner } from '../src/catalogue/event.js';
import type { AppContext } from '../src/context.js';
import type { Feed } from '../src/importers/feeds.js';
import { createLogger } from '../src/observability/logger.js';
import { seedFromFeeds } from '../src/use-cases/seed-catalogue.js';
import { syncFeed } from '../src/use-cases/sync-feeds.js';
import { backoffMinutes, startFeedSchedule } from '../src/use-cases/sync-schedule.js';
import { openTestContext, type TestContext } from './helpers/context.js';
import { ENGINES } from './helpers/engines.js';

const FIXTURES = new URL('./fixtures/', import.meta.url);
const NOW = '2026-11-01T12:00:00Z';

/** How the stand-in for the public host answers confs.tech's 2026/devops.json (every other file is served as is). */
type Mode = 'ok' | '500' | 'slow' | 'malformed' | 'gone' | 'dropped' | 'newyear';

/**
 * A local HTTP server standing in for raw.githubusercontent.com and developers.events: it serves the fixtures in
 * the repositories' layouts, 404 for files that do not exist, and misbehaves on demand.
 */
function standIn() {
  let mode: Mode = 'ok';
  const requests: string[] = [];
  const server = createServer((req, res) => {
    const path = req.url ?? '/';
    requests.push(path);
    const confs = path.match(/^\/confs\/conferences\/(\d{4})\/([a-z-]+)\.json$/);
    const devops = path.match(/^\/devopsdays\/data\/events\/(\d{4})\/([a-z-]+)\/main\.yml$/);
    const file = confs
      ? `confs-tech/${confs[1]}/${confs[2]}.json`
      : devops
        ? `devopsdays/${devops[1]}/${devops[2]}/main.yml`
        : path === '/dev/all-events.json'
          ? 'developers-events.json'
          : undefined;
    if (file === 'confs-tech/2026/devops.json' && mode !== 'ok') {
      if (mode === '500') return res.writeHead(500).end('upstream error');
      if (mode === 'slow') return setTimeout(() => res.end('[]'), 1500);
      if (mode === 'malformed') return res.writeHead(200).end('<html><body>Rate limit exceeded</body></html>');
      if (mode === 'newyear') {
        const row = { name: 'Hogmanay Hack', url: 'https://hack.example.org', startDate: '2026-12-30' };
        return res
          .writeHead(200)
          .end(JSON.stringify([{ ...row, endDate: '2027-01-02', city: 'Berlin', country: 'Germany' }]));
      }
      if (mode === 'dropped') {
        const rows = JSON.parse(readFileSync(new URL(file, FIXTURES), 'utf8')) as { name: string }[];
        return res.writeHead(200).end(JSON.stringify(rows.filter((r) => r.name !== 'IT Security Summit Munich')));
      }
    }
    if (!file || mode === 'gone' || !existsSync(new URL(file, FIXTURES)))
      return res.writeHead(404).end('404: Not Found');
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(readFileSync(new URL(file, FIXTURES)));
  });
  return {
    server,
    requests,
    setMode(next: Mode) {
      mode = next;
    },
  };
}

describe.each(ENGINES)('syncing the public sources from a local stand-in on %s', (engine) => {
  const host = standIn();
  let base: string;
  let t: TestContext;
  let confs: Feed;
  const owner = sourceOwner('confs');
  /** Everything of a source that a failed sync must leave as it was: each event with its revision. */
  const stateOf = async (source = 'confs') =>
    (await t.ctx.events.listByOwner(sourceOwner(source)))
      .map((e) => `${e.externalId} ${e.lifecycle} r${e.revision} ${e.start.toISOString()} ${e.topics.join(',')}`)
      .sort();

  beforeAll(async () => {
    await new Promise<void>((resolve) => host.server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(host.server.address() as AddressInfo).port}`;
    confs = {
      source: 'confs',
      format: 'confs-tech',
      licence: 'MIT',
      url: `${base}/confs/conferences/{year}/{topic}.json`,
      each: { topic: ['data', 'devops'] },
    };
    t = await openTestContext(engine, NOW);
  });
  afterAll(async () => {
    host.server.closeAllConnections();
    await new Promise((resolve) => host.server.close(resolve));
    await t?.close();
  });

  it('merges the topic files of two years into one source: a conference listed twice is one event', async () => {
    const result = await syncFeed(t.ctx, confs);
    expect(result.error).toBeUndefined();
    expect(result).toMatchObject({ urls: 4, missing: 1 }); // 2027/devops.json does not exist
    expect(result.report).toMatchObject({ created: 4, updated: 0, cancelled: 0, elsewhere: 2, skipped: [] });
    const events = await t.ctx.events.listByOwner(owner);
    expect(events.map((e) => e.externalId).sort()).toEqual([
      'Accelerate Tomorrow AI Summit@2027-06-15',
      'Berlin Buzzwords@2026-06-07',
      'IT Security Summit Munich@2026-11-30',
      'IT-Tage@2026-12-07',
    ]);
    const itTage = events.find((e) => e.title === 'IT-Tage')!;
    expect(itTage).toMatchObject({ country: 'de', city: 'Frankfurt am Main', allDay: true });
    // The call for papers and the language reach the event; both topic files' topics count.
    expect(itTage).toMatchObject({
      cfpUrl: 'https://www.ittage.informatik-aktuell.de/index.html',
      cfpUntil: '2026-04-30',
      language: 'de',
    });
    expect(itTage.topics).toEqual(expect.arrayContaining(['data', 'cloud-devops']));
    const [status] = await t.ctx.sources.list();
    expect(status).toMatchObject({
      source: 'confs',
      format: 'confs-tech',
      licence: 'MIT',
      lastError: null,
      failures: 0,
      lastRun: { created: 4, elsewhere: 2, urls: 4, missing: 1 },
    });
    expect(status!.lastSuccessAt).toEqual(new Date(NOW));
    const again = await syncFeed(t.ctx, confs);
    expect(again.report).toMatchObject({ created: 0, updated: 0, unchanged: 4 });
  });

  it('a 500, a timeout, a malformed body or no file at all: the feed fails and nothing of its source changes', async () => {
    const before = await stateOf();
    const { lastSuccessAt } = (await t.ctx.sources.list())[0]!;
    const cases: [Mode, RegExp][] = [
      ['500', /devops\.json answered HTTP 500/],
      ['slow', /devops\.json timed out after 0\.3 s/],
      ['malformed', /devops\.json is not confs-tech data: not valid JSON/],
      ['gone', /none of its 4 URLs exists/],
    ];
    for (const [mode, message] of cases) {
      host.setMode(mode);
      const result = await syncFeed(t.ctx, confs, { timeoutMs: 300 });
      expect(result.error, mode).toMatch(message);
      expect(result.report, mode).toBeUndefined();
      expect(await stateOf(), mode).toEqual(before);
    }
    const [status] = await t.ctx.sources.list();
    expect(status).toMatchObject({ failures: 4, lastError: expect.stringMatching(/none of its 4 URLs/) });
    expect(status!.lastSuccessAt).toEqual(lastSuccessAt); // the last good state is still the last success
    host.setMode('ok');
  });

  it('a conference gone from its file is cancelled, and restored when it returns', async () => {
    host.setMode('dropped');
    const dropped = await syncFeed(t.ctx, confs);
    expect(dropped.report).toMatchObject({ cancelled: 1, created: 0 });
    const summit = () => t.ctx.events.findByExternalId(owner, 'IT Security Summit Munich@2026-11-30');
    expect((await summit())!.lifecycle).toBe('cancelled');
    host.setMode('ok');
    expect((await syncFeed(t.ctx, confs)).report).toMatchObject({ restored: 1 });
    expect((await summit())!.lifecycle).toBe('listed');
    expect((await t.ctx.sources.list())[0]).toMatchObject({ failures: 0, lastError: null });
  });

  it("a feed of files by year leaves last year's events alone when the year turns", async () => {
    host.setMode('newyear');
    const feed: Feed = { ...confs, source: 'newyear' };
    try {
      expect((await syncFeed(t.at('2026-12-31T12:00:00Z'), feed)).report).toMatchObject({ created: 4 });
      // On 1 January the feed reads 2027 and 2028: the hackathon of 30 Dec – 2 Jan is not in them, and not cancelled.
      const next = await syncFeed(t.at('2027-01-01T12:00:00Z'), feed);
      expect(next).toMatchObject({ urls: 4, missing: 3 });
      expect(next.report).toMatchObject({ cancelled: 0, unchanged: 1 });
      const hack = await t.ctx.events.findByExternalId(sourceOwner('newyear'), 'Hogmanay Hack@2026-12-30');
      expect(hack!.lifecycle).toBe('listed');
    } finally {
      host.setMode('ok');
    }
  });

  it('syncs devopsdays YAML: DACH cities only, the organisers never', async () => {
    const feed: Feed = {
      source: 'devopsdays',
      format: 'devopsdays',
      url: `${base}/devopsdays/data/events/{year}/{city}/main.yml`,
      each: { city: ['zurich', 'geneva', 'amsterdam', 'berlin'] },
    };
    const result = await syncFeed(t.ctx, feed);
    expect(result).toMatchObject({ urls: 8, missing: 5 });
    expect(result.report).toMatchObject({ created: 2, elsewhere: 1, skipped: [] });
    const events = await t.ctx.events.listByOwner(sourceOwner('devopsdays'));
    const geneva = events.find((e) => e.externalId === '2027-geneva')!;
    expect(geneva).toMatchObject({ country: 'ch', geoPrecision: 'exact', title: 'devopsdays Geneva 2027' });
    const zurich = events.find((e) => e.externalId === '2027-zurich')!;
    expect(zurich).toMatchObject({ country: 'ch', allDay: true, organizer: 'devopsdays Zürich' });
    const stored = JSON.stringify([events, ...(await Promise.all(events.map((e) => t.ctx.events.revisions(e.id))))]);
    expect(stored).not.toMatch(/ORGANISER-BIO|Example AG|alex_example/);
  });

  it('syncs developers.events JSON when an operator enables it: cancellations, elsewhere, bad rows', async () => {
    const feed: Feed = { source: 'developers-events', format: 'developers-events', url: `${base}/dev/all-events.json` };
    const result = await syncFeed(t.ctx, feed);
    expect(result.report).toMatchObject({ created: 3, cancelled: 1, elsewhere: 2 });
    expect(result.report!.skipped.map((s) => s.record)).toEqual(['#7 "Broken row"']);
    const wien = await t.ctx.events.findByExternalId(
      sourceOwner('developers-events'),
      '2027-01-19-Example Security Summit Wien',
    );
    expect(wien).toMatchObject({ country: 'at', lifecycle: 'cancelled' });
  });

  it('a shipped snapshot is the source as a sync left it: the next sync updates it in place', async () => {
    const feed: Feed = {
      ...confs,
      source: 'seeded',
      seed: new URL('confs-tech/2026/devops.json', FIXTURES).pathname,
    };
    const [seeded] = await seedFromFeeds(t.ctx, [feed]);
    expect(seeded).toMatchObject({ source: 'seeded', created: 2 });
    const ids = (await t.ctx.events.listByOwner(sourceOwner('seeded'))).map((e) => e.id).sort();
    const synced = await syncFeed(t.ctx, feed);
    expect(synced.report).toMatchObject({ created: 2, cancelled: 0 }); // the two rows the snapshot did not have
    const after = await t.ctx.events.listByOwner(sourceOwner('seeded'));
    expect(after).toHaveLength(4);
    expect(ids.every((id) => after.some((e) => e.id === id))).toBe(true);
    expect(await seedFromFeeds(t.ctx, [feed])).toEqual([]); // the source has events: never seeded again
  });

  it('in the background: a failing feed is logged once, retried with backoff, and its recovery logged', async () => {
    const lines: { level: number; msg: string; source?: string }[] = [];
    const logger = createLogger('debug', { write: (line: string) => lines.push(JSON.parse(line)) });
    const ctx: AppContext = { ...t.ctx, logger };
    host.setMode('500');
    const runs: (string | undefined)[] = [];
    const schedule = startFeedSchedule(ctx, [confs], {
      intervalMinutes: 60,
      retryMinutes: 0.001, // 60 ms, then 120, 240…
      onRun: (r) => runs.push(r.error),
    });
    try {
      await until(() => runs.length >= 3);
      host.setMode('ok');
      await until(() => runs.at(-1) === undefined);
    } finally {
      await schedule.stop();
      host.setMode('ok');
    }
    const about = lines.filter((l) => l.source === 'confs');
    expect(about.filter((l) => l.level === 40 && /feed confs failed/.test(l.msg))).toHaveLength(1);
    expect(about.filter((l) => l.level === 20 && /failed again/.test(l.msg)).length).toBe(runs.length - 2);
    expect(about.at(-1)!.msg).toMatch(
      new RegExp(`feed confs synced \\(working again after ${runs.length - 1} failed runs\\)`),
    );
    // The next run is a whole interval away once it works again.
    expect(schedule.nextRuns().get('confs')! - Date.now()).toBeGreaterThan(59 * 60_000);
  });
});

describe('backoff', () => {
  it('doubles from the first retry up to the interval', () => {
    expect([1, 2, 3, 4, 9, 10].map((n) => backoffMinutes(n, 1, 360))).toEqual([1, 2, 4, 8, 256, 360]);
  });
});

async function until(condition: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}
