/**
 * npm run bench — throughput and latency of every read output against a ceiling measured in the same run.
 * The ceiling is a bare node:http server with a fixed 2 KB JSON body; the service runs as its own process on a
 * synthetic catalogue (source `demo`) of each size; autocannon drives both over loopback from this process.
 * Environment: BENCH_SIZES (default 1000,10000,100000), BENCH_SECONDS (default 8), BENCH_CONNECTIONS (default 50),
 * BENCH_ROUNDS (default 3: rounds of the reads under writes), BENCH_WRITES_PER_SECOND (default 20: their rate),
 * BENCH_DATABASE_URL (a PostgreSQL server to run on instead of the embedded engine).
 */
import {
  type CaseRequest,
  CONNECTIONS,
  MANY_CONSTRAINT_PROMPTS,
  type Measured,
  measure,
  measureAtRate,
  SECONDS,
} from './measure.js';
import { type Latencies, serviceWriteLatencies, startWriter, visibilityLag } from './mixed.js';
import { median } from './percentile.js';
import {
  freshStore,
  NOW,
  prepare,
  rssMb,
  type Store,
  SYNC_EVENTS,
  startCeiling,
  startService,
  waitForLine,
} from './service.js';
import { calendarsSync, readsDuringSync } from './sync-cases.js';
import { webhookBurst } from './webhooks-case.js';

const SIZES = (process.env.BENCH_SIZES ?? '1000,10000,100000').split(',').map(Number);
/** The steady write rate of the mixed cases (hosts pushing, RSVPs, a platform's updates). */
const WRITES_PER_SECOND = Number(process.env.BENCH_WRITES_PER_SECOND ?? 20);
/** Rounds of write-free and written reads behind the shares under writes (BENCH_ROUNDS; the median is checked). */
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));

/**
 * How long the service is left idle before its resident memory "at rest" is read, after start-up and after the run:
 * long enough for the runtime to hand back what the last burst of work left.
 */
const REST_MS = 25_000;

const Q_CASE = '/api/events q (4 words) + filters';

/** The read, index and memory targets for a catalogue size (issues 8 and 41), checked against this run's figures. */
function targetChecks(
  size: number,
  q: Measured,
  ceiling: number,
  buildMs: number,
  rss: { afterBuild: number; afterRun: number },
): string[] {
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
      `Target ${mark(rss.afterBuild < 400 && rss.afterRun < 450)}: resident memory at 100k at rest < 400 MB after start-up, < 450 MB after the read cases — ${rss.afterBuild.toFixed(0)} MB, ${rss.afterRun.toFixed(0)} MB`,
    );
  }
  return lines;
}

/** A table row: the case's figures and its throughput as a share of `baseline` req/s (`of` names it when the column does not). */
function row(name: string, m: Measured, baseline: number, of = ''): string {
  const ratio = ((m.rps / baseline) * 100).toFixed(0);
  return `| ${name} | ${Math.round(m.rps)} | ${m.p50} | ${m.p99} | ${ratio} %${of && ` ${of}`} |${m.errors ? ` ${m.errors} errors` : ''}`;
}

const MANY_CASE = '  prompts of 4–5 constraints (en/de/fr), a different one each request';

/**
 * The machine the many-constraint targets were set on answered 43–48k req/s at the ceiling: on another, the share of
 * the ceiling tells how this run's throughput compares (the req/s target stays the check).
 */
const TARGETS_CEILING = 45_000;

/**
 * The many-constraint prompts' targets at 10k and 100k, and how their cost grows with the catalogue: a prompt at
 * 100k costs at most 3× what it costs at 10k (the inverse of their throughputs, in one run).
 */
function manyChecks(size: number, many: Map<number, Measured>, ceiling: number): string[] {
  const mark = (ok: boolean) => (ok ? 'met' : 'NOT met');
  const m = many.get(size)!;
  const pct = (rps: number, of: number) => `${((rps / of) * 100).toFixed(1)} %`;
  const share = (target: number) =>
    `${Math.round(m.rps)} (${pct(m.rps, ceiling)} of this run's ceiling; the target is ${pct(target, TARGETS_CEILING)} of the ${TARGETS_CEILING / 1000}k it was set on)`;
  const lines: string[] = [];
  if (size === 10_000)
    lines.push(`Target ${mark(m.rps >= 1500)}: many-constraint prompts at 10k ≥ 1,500 req/s — ${share(1500)}`);
  if (size === 100_000) {
    lines.push(`Target ${mark(m.rps >= 500)}: many-constraint prompts at 100k ≥ 500 req/s — ${share(500)}`);
    const at10k = many.get(10_000);
    if (at10k) {
      const ratio = at10k.rps / m.rps;
      lines.push(
        `Target ${mark(ratio <= 3)}: a many-constraint prompt costs at 100k ≤ 3× its cost at 10k — ${ratio.toFixed(1)}×`,
      );
    }
  }
  return lines;
}

async function main() {
  const engine = process.env.BENCH_DATABASE_URL ? 'PostgreSQL' : 'embedded PGlite';
  console.log(
    `# tech-events bench — ${engine}, ${CONNECTIONS} connections, ${SECONDS} s per case, node ${process.version}\n`,
  );
  const many = new Map<number, Measured>();
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
    const { eventId, country, key } = await prepare(size, store);
    const port = 4401;
    const service = await startService(port, store, size >= 100_000);
    const built = JSON.parse(await waitForLine(service.child, service.logFile, /read index built/)) as {
      ms: number;
      events: number;
    };
    await new Promise((r) => setTimeout(r, REST_MS));
    const rssAfterBuild = rssMb(service.child.pid!);
    const base = `http://127.0.0.1:${port}`;
    const qUrl = `${base}/api/events?country=de&q=${encodeURIComponent('AI meetup Berlin free')}&format=in_person&limit=20`;
    const distinctUrl = `${base}/api/events?country=de&q={q}&format=in_person&limit=20`;
    const calendarUrl = `${base}/api/calendar?country=de&q=${encodeURIComponent('kubernetes munich')}`;
    const cases: [string, string, CaseRequest?][] = [
      ['/api/events (no q)', `${base}/api/events?country=de`],
      [Q_CASE, qUrl],
      [DISTINCT_CASE, distinctUrl, { distinct: true }],
      [MANY_CASE, `${base}/api/events?country=de&q={q}&limit=20`, { distinct: MANY_CONSTRAINT_PROMPTS }],
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
    const rssUnderLoad = rssMb(service.child.pid!);
    await new Promise((r) => setTimeout(r, REST_MS));
    const rssAfterRun = rssMb(service.child.pid!);
    console.log(
      `\nRSS after the run: ${rssAfterRun.toFixed(0)} MB at rest (${rssUnderLoad.toFixed(0)} MB as the last case ended, ${rssMb(service.child.pid!, 'VmHWM').toFixed(0)} MB at the peak)\n`,
    );
    const rss = { afterBuild: rssAfterBuild, afterRun: rssAfterRun };
    const targets = targetChecks(size, results.get(Q_CASE)!, ceiling.rps, built.ms, rss);
    many.set(size, results.get(MANY_CASE)!);
    targets.push(...manyChecks(size, many, ceiling.rps));
    targets.push(...(await mixedCases(size, base, key, store, results, { qUrl, distinctUrl }, service.logFile)));
    targets.push(...(await webhookBurst(base, key, distinctUrl, NOW)));
    console.log('');
    for (const line of targets) console.log(line);
    console.log('');
    await service.stop();
    await store.drop();
  }
}

const DISTINCT_CASE = '  q + filters, a different prompt each request';

function lagText(name: string, l: Latencies): string {
  return `${name}: p50 ${l.p50} ms, p99 ${l.p99} ms over ${l.count} writes${l.failed ? `, ${l.failed} FAILED` : ''}`;
}

/**
 * Reads while the catalogue is written: a steady 20 writes/s during the repeated and the distinct prompt, the
 * latency of those writes and how soon a write shows (on a second node too, on PostgreSQL), and at 100k a 5,000-event
 * feed synced during distinct prompts. Returns the target lines.
 */
async function mixedCases(
  size: number,
  base: string,
  key: string,
  store: Store,
  results: Map<string, Measured>,
  urls: { qUrl: string; distinctUrl: string },
  logFile: string,
): Promise<string[]> {
  const mark = (ok: boolean) => (ok ? 'met' : 'NOT met');
  const pct = (m: Measured, of: Measured) => (m.rps / of.rps) * 100;
  console.log(`### While ${WRITES_PER_SECOND} writes/s arrive\n`);
  console.log('| case | req/s | p50 ms | p99 ms | of write-free |');
  console.log('|---|---|---|---|---|');
  // The write-free figures again, just before writing starts: the cases since the first ones filled caches and grew
  // the heap, which slows reads by itself, so a share of those would not show what the writes cost. In rounds, as
  // one pair moves by 10–40 % from run to run on a 2-core machine; the target is checked on the median share.
  const first = { repeated: results.get(Q_CASE)!, distinct: results.get(DISTINCT_CASE)! };
  const shares = { repeated: [] as number[], distinct: [] as number[] };
  const writingFrom = Date.now();
  let failedEarlier = 0;
  let quiet!: { repeated: Measured; distinct: Measured };
  let distinct!: Measured;
  let writer!: Awaited<ReturnType<typeof startWriter>>;
  for (let round = 1; round <= ROUNDS; round++) {
    const label = ROUNDS > 1 ? ` (round ${round})` : '';
    quiet = { repeated: await measure(urls.qUrl), distinct: await measure(urls.distinctUrl, { distinct: true }) };
    const before = 'of the first run';
    console.log(row(`${Q_CASE}, write-free just before${label}`, quiet.repeated, first.repeated.rps, before));
    console.log(
      row(`${DISTINCT_CASE.trim()}, write-free just before${label}`, quiet.distinct, first.distinct.rps, before),
    );
    writer = await startWriter({ base, key, perSecond: WRITES_PER_SECOND, from: NOW });
    const repeated = await measure(urls.qUrl);
    console.log(row(`${Q_CASE}${label}`, repeated, quiet.repeated.rps));
    distinct = await measure(urls.distinctUrl, { distinct: true });
    console.log(row(`${DISTINCT_CASE}${label}`, distinct, quiet.distinct.rps));
    shares.repeated.push(pct(repeated, quiet.repeated));
    shares.distinct.push(pct(distinct, quiet.distinct));
    // The last round's writer goes on through the paced reads and the visibility probes.
    if (round < ROUNDS) failedEarlier += (await writer.stop()).failed;
  }
  const share = { repeated: median(shares.repeated), distinct: median(shares.distinct) };
  const offered = Math.round(quiet.distinct.rps / 2);
  // As long as the rounds together: a p99 is decided by its slowest 1 %, and in a run of a few seconds that is
  // whether a full collection of the heap (one every 10–20 s at this load) fell inside it.
  const pacedSeconds = SECONDS * ROUNDS;
  // This case is the first the bench's own HTTP client sends at a pace (autocannon drives the others): for its first
  // second or so, its code not yet compiled, it sends late, and a request is timed from when it was due, so the
  // client's warm-up would count as the service's latency. Two seconds at the same rate first, not counted.
  await measureAtRate(urls.distinctUrl, offered, 2);
  const paced = await measureAtRate(urls.distinctUrl, offered, pacedSeconds);
  console.log(
    row(
      `  the same, ${offered} req/s offered (half the write-free rate, ${pacedSeconds} s)`,
      paced,
      quiet.distinct.rps,
    ),
  );
  const second = process.env.BENCH_DATABASE_URL ? await startService(4402, store, false) : undefined;
  const readers = second ? [base, 'http://127.0.0.1:4402'] : [base];
  const [here, there] = await visibilityLag(base, readers, key, 40);
  const writes = await writer.stop();
  writes.failed += failedEarlier;
  const served = await serviceWriteLatencies(logFile, writingFrom, Date.now());
  await second?.stop();
  console.log(`\n${lagText('Write latency in the service (its access log)', served)}`);
  console.log(
    lagText('Write latency seen by the writer (its last round; on a thread of the loaded bench process)', writes),
  );
  console.log(lagText('Write → visible in /api/events, same node', here!));
  if (there) console.log(lagText('Write → visible in /api/events, second node', there));
  const lines = [
    `Target ${mark(share.repeated >= 80 && share.distinct >= 80)}: reads keep ≥ 80 % under ${WRITES_PER_SECOND} writes/s — repeated ${share.repeated.toFixed(0)} %, distinct ${share.distinct.toFixed(0)} %${ROUNDS > 1 ? ` (medians of ${ROUNDS} rounds: ${shares.repeated.map((x) => x.toFixed(0)).join(', ')} / ${shares.distinct.map((x) => x.toFixed(0)).join(', ')})` : ''}`,
    `Target ${mark(here!.p99 < 100 && here!.failed === 0)}: a write visible on its own node within 100 ms (p99) — ${here!.p99} ms`,
  ];
  if (there)
    lines.push(
      `Target ${mark(there.p99 < 1000 && there.failed === 0)}: on another node within 1 s (p99) — ${there.p99} ms`,
    );
  lines.push(...(await calendarsSync(size, base, 4401, urls.distinctUrl)));
  const pacedLimit = size === 10_000 ? 50 : size >= 100_000 ? 100 : undefined;
  if (pacedLimit !== undefined)
    lines.push(
      `Target ${mark(paced.p99 < pacedLimit && paced.errors === 0)}: distinct prompts p99 < ${pacedLimit} ms at ${size / 1000}k while writing, at half the write-free rate — ${paced.p99} ms (${distinct.p99} ms at saturation: ${CONNECTIONS} connections / ${Math.round(distinct.rps)} req/s = ${Math.round((CONNECTIONS / distinct.rps) * 1000)} ms mean)`,
    );
  if (size >= 100_000) {
    lines.push(
      `Target ${mark(served.p99 < 50 && served.failed === 0 && writes.failed === 0)}: write latency p99 < 50 ms in the service — ${served.p99} ms (${writes.p99} ms seen by the writer)`,
    );
    const sync = await readsDuringSync(base, urls.distinctUrl);
    console.log(
      `\n${SYNC_EVENTS}-event feed synced in ${sync.seconds.toFixed(1)} s during distinct prompts: ${JSON.stringify(sync.report)}`,
    );
    console.log(row('  reads during the sync', sync, quiet.distinct.rps, 'of sync-free'));
    lines.push(
      `Target ${mark(pct(sync, quiet.distinct) >= 50 && sync.errors === 0)}: reads during a ${SYNC_EVENTS}-event sync keep ≥ 50 %, none fails — ${pct(sync, quiet.distinct).toFixed(0)} %, ${sync.errors} errors`,
    );
  }
  return lines;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
