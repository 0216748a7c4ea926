/**
 * npm run bench — throughput and latency of every read output against a ceiling measured in the same run.
 * The ceiling is a bare node:http server with a fixed 2 KB JSON body; the service runs as its own process on a
 * synthetic catalogue (source `demo`) of each size; autocannon drives both over loopback from this process.
 * Environment: BENCH_SIZES (default 1000,10000,100000), BENCH_SECONDS (default 8), BENCH_CONNECTIONS (default 50).
 */
import { type ChildProcess, fork, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
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
  /** Make every request's URL distinct (a cache-busting parameter): measures the engine, not the response cache. */
  distinct?: boolean;
}

async function measure(url: string, request: CaseRequest = {}): Promise<Measured> {
  const { distinct, ...options } = request;
  const target = new URL(url);
  let n = 0;
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: SECONDS,
    ...options,
    ...(distinct
      ? {
          requests: [
            { setupRequest: (req: object) => ({ ...req, path: `${target.pathname}${target.search}&_=${n++}` }) },
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

function waitForLine(child: ChildProcess, pattern: RegExp): Promise<string> {
  return new Promise((resolveLine, reject) => {
    let buffer = '';
    const onData = (chunk: Buffer) => {
      buffer += chunk.toString();
      const line = buffer.split('\n').find((l) => pattern.test(l));
      if (line) {
        child.stdout!.off('data', onData);
        resolveLine(line);
      }
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`service exited with ${code}: ${buffer}`)));
  });
}

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
}

async function startCeiling(port: number): Promise<ChildProcess> {
  const child = fork(join(ROOT, 'bench/ceiling.ts'), [String(port)], { execArgv: ['--import', 'tsx'] });
  await new Promise((r) => child.once('message', r));
  return child;
}

async function prepare(size: number): Promise<{ dir: string; eventId: string; country: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'tev-bench-'));
  const config = loadConfig({ DATA_DIR: dir, TECH_EVENTS_NOW: NOW, LOG_LEVEL: 'silent' });
  const storage = await openStorage({ dataDir: dir });
  const ctx = createContext(config, storage, createLogger('silent'));
  const started = performance.now();
  await loadDemoCatalogue(ctx, size);
  const first = (await ctx.events.findById('demo-1'))!;
  await storage.close();
  console.log(`  generated ${size} demo events in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return { dir, eventId: first.id, country: first.country };
}

function row(name: string, m: Measured, ceiling: number): string {
  const ratio = ((m.rps / ceiling) * 100).toFixed(0);
  return `| ${name} | ${Math.round(m.rps)} | ${m.p50} | ${m.p99} | ${ratio} % |${m.errors ? ` ${m.errors} errors` : ''}`;
}

async function main() {
  console.log(`# tech-events bench — ${CONNECTIONS} connections, ${SECONDS} s per case, node ${process.version}\n`);
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
    const { dir, eventId, country } = await prepare(size);
    const port = 4401;
    const service = spawn(
      process.execPath,
      [join(ROOT, 'dist/cli/main.js'), 'serve', '--no-seed', '--port', String(port), '--host', '127.0.0.1'],
      {
        env: {
          ...process.env,
          DATA_DIR: dir,
          TECH_EVENTS_NOW: NOW,
          LOG_LEVEL: 'info',
          BASE_URL: `http://127.0.0.1:${port}`,
          // One client address sends everything here: per-client read limits would measure the limiter.
          RATE_LIMIT_READS_PER_MINUTE: '0',
        },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    const built = JSON.parse(await waitForLine(service, /read index built/)) as { ms: number; events: number };
    await waitForLine(service, /listening/);
    service.stdout!.resume(); // keep draining the logs: a full pipe would block the service's writes
    const rssAfterBuild = rssMb(service.pid!);
    const base = `http://127.0.0.1:${port}`;
    const qUrl = `${base}/api/events?country=de&q=${encodeURIComponent('AI meetup Berlin free')}&format=in_person&limit=20`;
    const calendarUrl = `${base}/api/calendar?country=de&q=${encodeURIComponent('kubernetes munich')}`;
    const cases: [string, string, CaseRequest?][] = [
      ['/api/events (no q)', `${base}/api/events?country=de`],
      ['/api/events q (4 words) + filters', qUrl],
      ['  the same, every URL distinct (uncached)', qUrl, { distinct: true }],
      ['/de.md', `${base}/de.md`],
      ['  the same, every URL distinct (uncached)', `${base}/de.md?limit=50`, { distinct: true }],
      ['/api/calendar?q=…', calendarUrl],
      ['  the same, every URL distinct (uncached)', calendarUrl, { distinct: true }],
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
      `Read index: ${built.events} events built in ${built.ms} ms; RSS ${rssAfterBuild.toFixed(0)} MB (${((rssAfterBuild / size) * 10_000).toFixed(0)} MB per 10k events)\n`,
    );
    console.log('| case | req/s | p50 ms | p99 ms | of ceiling |');
    console.log('|---|---|---|---|---|');
    for (const [name, url, request] of cases) console.log(row(name, await measure(url, request), ceiling.rps));
    console.log(`\nRSS after the run: ${rssMb(service.pid!).toFixed(0)} MB\n`);
    service.kill('SIGTERM');
    await new Promise((r) => service.once('exit', r));
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
