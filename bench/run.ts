/**
 * npm run bench — throughput and latency of every read output against a ceiling measured in the same run.
 * The ceiling is a bare node:http server with a fixed 2 KB JSON body; the service runs as its own process on a
 * synthetic catalogue (source `demo`) of each size; autocannon drives both over loopback from this process.
 * Environment: BENCH_SIZES (default 1000,10000,100000), BENCH_SECONDS (default 8), BENCH_CONNECTIONS (default 50),
 * BENCH_DATABASE_URL (a PostgreSQL server to run on instead of the embedded engine).
 */
import { type ChildProcess, fork, spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { loadConfig } from '../src/config.js';
import { createContext } from '../src/context.js';
import { loadDemoCatalogue } from '../src/demo/load.js';
import { createLogger } from '../src/logger.js';
import { openStorage } from '../src/storage/database.js';

const ROOT = resolve(import.meta.dirname, '..');
const SIZES = (process.env.BENCH_SIZES ?? '1000,10000,100000').split(',').map(Number);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const NOW = '2026-01-05T09:00:00Z';

interface Measured {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

interface CaseRequest {
  method?: 'GET' | 'POST';
  body?: string;
  headers?: Record<string, string>;
  /**
   * Replace `{q}` in the URL with a different realistic prompt on every request, cycling through more prompts than
   * the service's caches hold: measures the ranking engine and renderers, not the caches.
   */
  distinct?: boolean;
}

/**
 * 12,800 distinct prompts: topic word × kind × city (German cities, for the de catalogue) × a modifier. A prompt
 * comes round again only after 12,800 others, long after the response cache (2,000 entries) and the engine's result
 * cache (500) have let it go.
 */
const PROMPTS = (() => {
  const words = ['AI', 'Kubernetes', 'Rust', 'Python', 'Security', 'Data', 'React', 'Startup', 'UX', 'Product'];
  const kinds = ['meetup', 'conference', 'workshop', 'night'];
  const cities = [
    'Berlin',
    'Hamburg',
    'München',
    'Köln',
    'Frankfurt',
    'Stuttgart',
    'Düsseldorf',
    'Leipzig',
    'Dortmund',
    'Essen',
    'Bremen',
    'Dresden',
    'Hannover',
    'Nürnberg',
    'Duisburg',
    'Bochum',
    'Wuppertal',
    'Bielefeld',
    'Bonn',
    'Münster',
    'Karlsruhe',
    'Mannheim',
    'Augsburg',
    'Wiesbaden',
    'Mönchengladbach',
    'Gelsenkirchen',
    'Braunschweig',
    'Aachen',
    'Kiel',
    'Chemnitz',
    'Halle',
    'Magdeburg',
    'Freiburg',
    'Krefeld',
    'Mainz',
    'Lübeck',
    'Erfurt',
    'Oberhausen',
    'Rostock',
    'Kassel',
  ];
  const modifiers = [
    '',
    ' free',
    ' online',
    ' next week',
    ' for beginners',
    ' this weekend',
    ' in person',
    ' for founders',
  ];
  return words.flatMap((w) =>
    kinds.flatMap((k) => cities.flatMap((c) => modifiers.map((m) => encodeURIComponent(`${w} ${k} ${c}${m}`)))),
  );
})();

async function measure(url: string, request: CaseRequest = {}): Promise<Measured> {
  const { distinct, ...options } = request;
  const target = new URL(url.replace('{q}', PROMPTS[0]!));
  const template = `${target.pathname}${new URL(url.replace('{q}', 'QUERY')).search}`;
  let n = 0;
  const result = await autocannon({
    url: target.toString(),
    connections: CONNECTIONS,
    duration: SECONDS,
    ...options,
    ...(distinct
      ? {
          requests: [
            {
              setupRequest: (req: object) => ({
                ...req,
                path: template.replace('QUERY', PROMPTS[n++ % PROMPTS.length]!),
              }),
            },
          ],
        }
      : {}),
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

/**
 * The first line of the service's log file that matches, waiting for it to be written. The log goes to a file rather
 * than a pipe into this process: reading ten thousand lines a second here would take time from autocannon, which
 * runs on this thread, and handicap the service against the ceiling (which logs nothing).
 */
async function waitForLine(child: ChildProcess, logFile: string, pattern: RegExp): Promise<string> {
  for (;;) {
    const line = readFileSync(logFile, 'utf8')
      .split('\n')
      .find((l) => pattern.test(l));
    if (line) return line;
    if (child.exitCode !== null)
      throw new Error(`service exited with ${child.exitCode}: ${readFileSync(logFile, 'utf8')}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The service's collections while idle so far, from its log: heap in use and young generation before → after. */
function idleCollections(logFile: string): string[] {
  return readFileSync(logFile, 'utf8')
    .split('\n')
    .filter((line) => line.includes('collected garbage while idle'))
    .map((line) => {
      const r = JSON.parse(line) as Record<string, number>;
      return `heap ${r.heapMbBefore} → ${r.heapMbAfter} MB, young ${r.youngMbBefore} → ${r.youngMbAfter} MB in ${r.ms} ms`;
    });
}

/** Resident memory of a process in MB, now or (`VmHWM`) at its peak so far. */
function rssMb(pid: number, field: 'VmRSS' | 'VmHWM' = 'VmRSS'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)![1]) / 1024;
}

/**
 * How long the service is left idle before its resident memory "at rest" is read, after start-up and after the run.
 * An idle service collects the garbage of the last burst after 5 s of idleness (`collectWhenIdle`, src/heap.ts),
 * sometimes in two steps 5 s apart, and V8's background threads then hand the freed pages back to the system.
 */
const REST_MS = 15_000;

async function startCeiling(port: number): Promise<ChildProcess> {
  const child = fork(join(ROOT, 'bench/ceiling.ts'), [String(port)], { execArgv: ['--import', 'tsx'] });
  await new Promise((r) => child.once('message', r));
  return child;
}

/** Where the catalogue lives: the embedded engine (default), or a fresh database on BENCH_DATABASE_URL's server. */
interface Store {
  env: Record<string, string>;
  drop(): Promise<void>;
}

async function freshStore(): Promise<Store> {
  const server = process.env.BENCH_DATABASE_URL;
  if (!server) {
    const dir = mkdtempSync(join(tmpdir(), 'tev-bench-'));
    return { env: { DATA_DIR: dir }, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const name = `tev_bench_${Date.now()}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(server);
  url.pathname = `/${name}`;
  return {
    env: { DATABASE_URL: url.toString() },
    drop: async () => {
      const client = new pg.Client({ connectionString: server });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

async function prepare(size: number, store: Store): Promise<{ eventId: string; country: string }> {
  const config = loadConfig({ ...store.env, TECH_EVENTS_NOW: NOW, LOG_LEVEL: 'silent' });
  const storage = await openStorage({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  const ctx = createContext(config, storage, createLogger('silent'));
  const started = performance.now();
  await loadDemoCatalogue(ctx, size);
  const first = (await ctx.events.findById('demo-1'))!;
  await storage.close();
  console.log(`  generated ${size} demo events in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return { eventId: first.id, country: first.country };
}

const Q_CASE = '/api/events q (4 words) + filters';

/** Issue 8's targets for a catalogue size, checked against this run's figures. */
function targetChecks(size: number, q: Measured, ceiling: number, buildMs: number, rss: number): string[] {
  const mark = (ok: boolean) => (ok ? 'met' : 'NOT met');
  const share = q.rps / ceiling;
  const lines: string[] = [];
  if (size === 10_000) {
    lines.push(
      `Target ${mark(share >= 0.4 && q.p99 < 25)}: q at 10k ≥ 40 % of the ceiling with p99 < 25 ms — ${(share * 100).toFixed(0)} %, p99 ${q.p99} ms`,
    );
  }
  if (size === 100_000) {
    lines.push(
      `Target ${mark(share >= 0.15 && q.p99 < 100)}: q at 100k ≥ 15 % of the ceiling with p99 < 100 ms — ${(share * 100).toFixed(0)} %, p99 ${q.p99} ms`,
      `Target ${mark(buildMs < 5000)}: read index for 100k built in < 5 s — ${(buildMs / 1000).toFixed(1)} s`,
      `Target ${mark(rss < 400)}: resident memory at 100k < 400 MB — ${rss.toFixed(0)} MB at most (at rest after start-up and after the run)`,
    );
  }
  return lines;
}

function row(name: string, m: Measured, ceiling: number): string {
  const ratio = ((m.rps / ceiling) * 100).toFixed(0);
  return `| ${name} | ${Math.round(m.rps)} | ${m.p50} | ${m.p99} | ${ratio} % |${m.errors ? ` ${m.errors} errors` : ''}`;
}

async function main() {
  const engine = process.env.BENCH_DATABASE_URL ? 'PostgreSQL' : 'embedded PGlite';
  console.log(
    `# tech-events bench — ${engine}, ${CONNECTIONS} connections, ${SECONDS} s per case, node ${process.version}\n`,
  );
  const ceilingPort = 4400;
  const ceilingServer = await startCeiling(ceilingPort);
  const ceiling = await measure(`http://127.0.0.1:${ceilingPort}/`);
  console.log(
    `Ceiling (bare node:http, fixed 2 KB JSON): ${Math.round(ceiling.rps)} req/s, p50 ${ceiling.p50} ms, p99 ${ceiling.p99} ms\n`,
  );
  ceilingServer.kill();

  const mcpBody = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'search_events', arguments: { q: 'Kubernetes meetup in Berlin', country: 'de', limit: 20 } },
  });
  for (const size of SIZES) {
    console.log(`## ${size} events`);
    const store = await freshStore();
    const { eventId, country } = await prepare(size, store);
    const port = 4401;
    const logFile = join(tmpdir(), `tev-bench-${process.pid}-${size}.log`);
    const logFd = openSync(logFile, 'w');
    const service = spawn(
      process.execPath,
      [join(ROOT, 'dist/cli/main.js'), 'serve', '--no-seed', '--port', String(port), '--host', '127.0.0.1'],
      {
        env: {
          ...process.env,
          ...store.env,
          TECH_EVENTS_NOW: NOW,
          LOG_LEVEL: 'info',
          BASE_URL: `http://127.0.0.1:${port}`,
          // One client address sends everything here: per-client read limits would measure the limiter.
          RATE_LIMIT_READS_PER_MINUTE: '0',
          RATE_LIMIT_WRITES_PER_MINUTE: '0',
        },
        stdio: ['ignore', logFd, 'inherit'],
      },
    );
    closeSync(logFd);
    const built = JSON.parse(await waitForLine(service, logFile, /read index built/)) as { ms: number; events: number };
    await waitForLine(service, logFile, /listening/);
    await new Promise((r) => setTimeout(r, REST_MS));
    const rssAfterBuild = rssMb(service.pid!);
    const base = `http://127.0.0.1:${port}`;
    const qUrl = `${base}/api/events?country=de&q=${encodeURIComponent('AI meetup Berlin free')}&format=in_person&limit=20`;
    const calendarUrl = `${base}/api/calendar?country=de&q=${encodeURIComponent('kubernetes munich')}`;
    const cases: [string, string, CaseRequest?][] = [
      ['/api/events (no q)', `${base}/api/events?country=de`],
      [Q_CASE, qUrl],
      [
        '  q + filters, a different prompt each request',
        `${base}/api/events?country=de&q={q}&format=in_person&limit=20`,
        { distinct: true },
      ],
      ['/de.md', `${base}/de.md`],
      ['  /de.md?q=…, a different prompt each request', `${base}/de.md?q={q}`, { distinct: true }],
      ['/api/calendar?q=…', calendarUrl],
      ['  the same, a different prompt each request', `${base}/api/calendar?country=de&q={q}`, { distinct: true }],
      ['event page', `${base}/${country}/events/${eventId}`],
      [
        'MCP tools/call search_events',
        `${base}/api/mcp`,
        {
          method: 'POST',
          body: mcpBody,
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        },
      ],
    ];
    console.log(
      `Read index: ${built.events} events built in ${built.ms} ms; RSS at rest ${rssAfterBuild.toFixed(0)} MB (${((rssAfterBuild / size) * 10_000).toFixed(0)} MB per 10k events)\n`,
    );
    console.log('| case | req/s | p50 ms | p99 ms | of ceiling |');
    console.log('|---|---|---|---|---|');
    const results = new Map<string, Measured>();
    for (const [name, url, request] of cases) {
      const m = await measure(url, request);
      results.set(name, m);
      console.log(row(name, m, ceiling.rps));
    }
    const rssUnderLoad = rssMb(service.pid!);
    await new Promise((r) => setTimeout(r, REST_MS));
    const rssAfterRun = rssMb(service.pid!);
    console.log(
      `\nRSS after the run: ${rssAfterRun.toFixed(0)} MB at rest (${rssUnderLoad.toFixed(0)} MB as the last case ended, ${rssMb(service.pid!, 'VmHWM').toFixed(0)} MB at the peak)\n`,
    );
    console.log(`Collections while idle (service log): ${idleCollections(logFile).join('; ') || 'none'}\n`);
    const rss = Math.max(rssAfterBuild, rssAfterRun);
    for (const line of targetChecks(size, results.get(Q_CASE)!, ceiling.rps, built.ms, rss)) console.log(line);
    console.log('');
    service.kill('SIGTERM');
    await new Promise((r) => service.once('exit', r));
    rmSync(logFile, { force: true });
    await store.drop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
