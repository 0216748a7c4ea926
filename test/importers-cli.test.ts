import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sourceOwner } from '../src/catalogue/event.js';
import { InputError, readInput } from '../src/importers/registry.js';
import type { SyncResult } from '../src/use-cases/sync-feeds.js';
import { loadFeeds, syncFeed } from '../src/use-cases/sync-feeds.js';
import { startFeedSchedule } from '../src/use-cases/sync-schedule.js';
import { openTestContext, type TestContext } from './helpers/context.js';
import { createDataDir, ENGINES } from './helpers/engines.js';
import { runCli } from './helpers/process.js';

const ICS_PATH = 'test/fixtures/meetup-zurich-ai.ics';
const ICS = readFileSync(new URL('./fixtures/meetup-zurich-ai.ics', import.meta.url), 'utf8');
const NOW = '2026-03-01T12:00:00Z';

describe('tech-events import and sync (CLI, embedded engine)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tev-import-cli-'));
  const env = { DATA_DIR: createDataDir('tev-import-cli-data-'), TECH_EVENTS_NOW: NOW };
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
    rmSync(env.DATA_DIR, { recursive: true, force: true });
  });

  it('imports an iCal feed, printing the counts and each skipped record', async () => {
    const args = ['import', ICS_PATH, '--format', 'ical', '--source', 'zurich-ai', '--country', 'ch'];
    const res = await runCli(args, env);
    expect(res.status, res.stderr).toBe(0);
    expect(res.stdout).toContain('created 12, updated 0, unchanged 0, cancelled 1, restored 0, skipped 2');
    expect(res.stdout).toContain('skipped "Mystery Meetup" (event_300000006@meetup.com): no DTSTART');
    expect(res.stdout).toContain('skipped "Broken Date Night" (event_300000007@meetup.com): DTSTART');
    const again = await runCli([...args, '--cancel-missing'], env);
    expect(again.stdout).toContain('created 0, updated 0, unchanged 12, cancelled 0, restored 0, skipped 2');
  });

  it('imports confs.tech JSON and JSON lines, naming the bad records', async () => {
    const confs = await runCli(
      ['import', 'test/fixtures/confs-tech-excerpt.json', '--format', 'confs-tech', '--source', 'confs'],
      env,
    );
    expect(confs.status, confs.stderr).toBe(0);
    expect(confs.stdout).toContain(
      'created 6, updated 0, unchanged 0, cancelled 0, restored 0, skipped 1, outside ch/de/at 1',
    );
    expect(confs.stdout).toMatch(/skipped #4 "Frontend Nation Day": url: /);
    expect(confs.stderr).toBe(''); // not a terminal: no progress bar
    const jsonl = await runCli(['import', 'test/fixtures/events.jsonl', '--format', 'jsonl', '--source', 'bulk'], env);
    expect(jsonl.status, jsonl.stderr).toBe(0);
    expect(jsonl.stdout).toContain('created 3, updated 0, unchanged 0, cancelled 0, restored 0, skipped 3');
    expect(jsonl.stdout).toMatch(/skipped line 4: startAt: must be an ISO 8601 date-time/);
  });

  it('exits 1 when the input cannot be read or nothing in it is usable', async () => {
    const missing = await runCli(['import', 'nope.ics', '--format', 'ical', '--source', 's'], env);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain('nope.ics: no such file');
    const wrongFormat = await runCli(['import', ICS_PATH, '--format', 'jsonl', '--source', 's'], env);
    expect(wrongFormat.status).toBe(1);
    expect(wrongFormat.stdout).toMatch(/skipped line 1: not valid JSON/);
  });

  it('exits 2 with the usage on bad arguments, before touching anything', async () => {
    // Side by side: none of them opens the database.
    const [format, host, noInput] = await Promise.all([
      runCli(['import', ICS_PATH, '--format', 'csv', '--source', 's'], env),
      runCli(['import', ICS_PATH, '--format', 'ical', '--source', 'host'], env),
      runCli(['import', '--format', 'ical', '--source', 's'], env),
    ]);
    expect(format.status).toBe(2);
    expect(format.stderr).toContain(
      '--format must be one of bevy, confs-tech, devopsdays, developers-events, ical, jsonl',
    );
    expect(host.stderr).toContain('--source "host" is reserved for events pushed by hosts');
    expect(noInput.status).toBe(2);
  });

  it('syncs every feed of the feeds file; a failing feed is reported and does not stop the others', async () => {
    const feeds = join(dir, 'feeds.json');
    writeFileSync(
      feeds,
      JSON.stringify([
        { source: 'gone', format: 'ical', url: 'missing.ics' },
        { source: 'zurich-ai', format: 'ical', url: join(process.cwd(), ICS_PATH), country: 'ch' },
      ]),
    );
    const res = await runCli(['sync'], { ...env, FEEDS_FILE: feeds });
    expect(res.status).toBe(1);
    expect(res.stdout).toMatch(/gone \(ical .*missing\.ics\): FAILED: .*missing\.ics: no such file/);
    expect(res.stdout).toMatch(/zurich-ai \(ical .*\): created 0, updated 0, unchanged 12, cancelled 0/);
    const bad = await runCli(['sync', '--feeds', join(dir, 'none.json')], env);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain('not found');
  });
});

describe('feeds file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tev-feeds-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const write = (feeds: unknown) => {
    const path = join(dir, 'feeds.json');
    writeFileSync(path, JSON.stringify(feeds));
    return path;
  };

  it('resolves relative paths against the file and refuses bad or repeated entries', async () => {
    const ok = await loadFeeds(write([{ source: 'a', format: 'jsonl', url: 'a.jsonl' }]));
    expect(ok).toEqual([{ source: 'a', format: 'jsonl', url: join(dir, 'a.jsonl') }]);
    await expect(loadFeeds(write([{ source: 'a', format: 'csv', url: 'x' }]))).rejects.toThrow(
      /\[0\]\.format: must be one of bevy, confs-tech, devopsdays, developers-events, ical, jsonl/,
    );
    const twice = [
      { source: 'a', format: 'ical', url: 'https://example.org/a.ics' },
      { source: 'a', format: 'ical', url: 'https://example.org/b.ics' },
    ];
    await expect(loadFeeds(write(twice))).rejects.toThrow(/source "a" appears twice/);
  });
});

describe.each(ENGINES)('feeds over HTTP on %s', (engine) => {
  let server: Server;
  let base: string;
  let t: TestContext;

  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/calendar.ics') res.writeHead(200, { 'content-type': 'text/calendar' }).end(ICS);
      else if (req.url === '/big.ics') res.writeHead(200).end('x'.repeat(5000));
      else if (req.url === '/slow.ics') setTimeout(() => res.end(ICS), 2000);
      else res.writeHead(404).end('not found');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    t = await openTestContext(engine, NOW);
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await t?.close();
  });

  it('reads a URL, with clear errors for HTTP failures, oversize bodies and timeouts', async () => {
    expect(await readInput(`${base}/calendar.ics`)).toBe(ICS);
    await expect(readInput(`${base}/missing.ics`)).rejects.toThrow(/answered HTTP 404/);
    await expect(readInput(`${base}/big.ics`, { maxBytes: 1000 })).rejects.toThrow(/larger than/);
    await expect(readInput(`${base}/slow.ics`, { timeoutMs: 200 })).rejects.toThrow(/timed out after 0.2 s/);
    await expect(readInput('http://127.0.0.1:1/x.ics')).rejects.toBeInstanceOf(InputError);
  });

  it('syncs a feed fetched over HTTP; a failing feed changes nothing of its source', async () => {
    const results = [
      await syncFeed(t.ctx, { source: 'zurich-ai', format: 'ical', url: `${base}/calendar.ics`, country: 'ch' }),
      await syncFeed(t.ctx, { source: 'dead', format: 'ical', url: `${base}/gone.ics` }),
    ];
    expect(results[0]!.report).toMatchObject({ created: 12, cancelled: 1, skipped: [{}, {}] });
    expect(results[1]).toMatchObject({ error: expect.stringMatching(/HTTP 404/) });
    expect(results[1]!.report).toBeUndefined();
  });

  it('runs on an in-process timer until stopped', async () => {
    const feeds = [{ source: 'timer', format: 'ical', url: `${base}/calendar.ics`, country: 'ch' as const }];
    let schedule: ReturnType<typeof startFeedSchedule> | undefined;
    const result = await new Promise<SyncResult>((resolve) => {
      schedule = startFeedSchedule(t.ctx, feeds, { intervalMinutes: 60, onRun: resolve });
    });
    await schedule!.stop();
    expect(result.report).toMatchObject({ created: 12 });
    expect(await t.ctx.events.listByOwner(sourceOwner('timer'))).toHaveLength(12);
  });
});
