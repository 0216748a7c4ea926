/**
 * npm run soak — a bounded mixed read/write load against a real server process on loopback.
 *
 * Starts `tech-events serve` on the embedded engine (temporary data directory, the curated catalogue, default rate
 * limits unless the environment sets them), issues host keys through the admin API, then for SOAK_SECONDS runs:
 *  - readers: JSON, markdown, iCal, pages, event pages and MCP searches, each request from one of many client
 *    addresses (X-Forwarded-For, trusted from the loopback peer), so that each client stays within its limit;
 *  - writers: creates, updates, cancels, restores and identical resends over a pool of keys, honouring Retry-After;
 *  - two flooders that deliberately exceed the limits (one address reading, one key writing): their 429s are the
 *    intended ones and are counted separately.
 * Then it compares every acknowledged write with the key's `mine=1` list and prints requests served, errors
 * (anything but a 2xx, a 304 or a well-formed 429), rate-limited requests and writes lost. Exit code 1 on any error
 * or lost write.
 *
 * SOAK_SECONDS (60), SOAK_READERS (12), SOAK_WRITERS (4), SOAK_KEYS (16), SOAK_PORT (a free port).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { SEMI_SPACE_FLAG } from '../src/runtime/heap.js';

const ROOT = resolve(import.meta.dirname, '..');
const SECONDS = Number(process.env.SOAK_SECONDS ?? 60);
const READERS = Number(process.env.SOAK_READERS ?? 12);
const WRITERS = Number(process.env.SOAK_WRITERS ?? 4);
const KEYS = Number(process.env.SOAK_KEYS ?? 16);
const NOW = '2025-03-01T09:00:00Z'; // the curated catalogue's dates are around this

interface Figures {
  requests: number;
  reads: number;
  writes: number;
  rateLimited: { reads: number; writes: number };
  errors: number;
  writesAcknowledged: number;
  writesLost: number;
  duplicates: number;
  latencyMs: { p50: number; p99: number; max: number };
  rssMb: { start: number; end: number };
}

const errors: string[] = [];
const latencies: number[] = [];
const figures: Figures = {
  requests: 0,
  reads: 0,
  writes: 0,
  rateLimited: { reads: 0, writes: 0 },
  errors: 0,
  writesAcknowledged: 0,
  writesLost: 0,
  duplicates: 0,
  latencyMs: { p50: 0, p99: 0, max: 0 },
  rssMb: { start: 0, end: 0 },
};

function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer();
    s.once('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => res(port));
    });
  });
}

const rssMb = (pid: number) => {
  try {
    const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
    return Math.round(kb / 1024);
  } catch {
    return 0;
  }
};

function recordError(what: string) {
  figures.errors++;
  if (errors.length < 20) errors.push(what);
}

type Kind = 'read' | 'write';
/** What the workers read from an answer: the status, Retry-After, the id of a created event, a problem code. */
interface Answer {
  status: number;
  body: { id?: string; code?: string } | string | undefined;
  headers: Headers;
}

/** One request; classifies the answer. Returns the response (undefined on a network error). */
async function call(
  kind: Kind,
  url: string,
  init: RequestInit & { ip?: string } = {},
  accept: (status: number) => boolean = (s) => s >= 200 && s < 300,
): Promise<Answer | undefined> {
  const headers = new Headers(init.headers);
  if (init.ip) headers.set('x-forwarded-for', init.ip);
  const started = performance.now();
  let res: Response;
  let text: string;
  try {
    res = await fetch(url, { ...init, headers });
    text = await res.text();
  } catch (error) {
    recordError(`${kind} ${url}: ${String(error)}`);
    return undefined;
  }
  latencies.push(performance.now() - started);
  const type = res.headers.get('content-type') ?? '';
  const body: Answer['body'] = /json/.test(type) && text ? JSON.parse(text) : text;
  if (res.status === 429) {
    const wellFormed =
      /^application\/problem\+json/.test(type) &&
      typeof body === 'object' &&
      body.code === 'rate-limited' &&
      Number(res.headers.get('retry-after')) >= 1;
    if (!wellFormed) recordError(`${kind} ${url}: malformed 429 ${text.slice(0, 200)}`);
    figures.rateLimited[kind === 'read' ? 'reads' : 'writes']++;
    return { status: res.status, body, headers: res.headers };
  }
  figures.requests++;
  figures[kind === 'read' ? 'reads' : 'writes']++;
  if (!accept(res.status) && res.status !== 304)
    recordError(`${kind} ${init.method ?? 'GET'} ${url}: ${res.status} ${text.slice(0, 200)}`);
  return { status: res.status, body, headers: res.headers };
}

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** One of 2000 client addresses: real traffic comes from many clients, each well within its limit. */
const clientIp = () => `198.18.${Math.floor(Math.random() * 8)}.${1 + Math.floor(Math.random() * 250)}`;

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'tev-soak-'));
  const port = Number(process.env.SOAK_PORT) || (await freePort());
  const base = `http://127.0.0.1:${port}`;
  const adminToken = randomBytes(24).toString('hex');
  const { BASE_URL: _b, DATABASE_URL: _d, DATA_DIR: _dd, ...parentEnv } = process.env;
  let server: ChildProcess | undefined;
  let output = '';
  const stopServer = async () => {
    if (server && server.exitCode === null && server.signalCode === null) {
      const exited = new Promise((r) => server!.once('exit', r));
      server.kill('SIGTERM');
      await Promise.race([exited, sleep(10_000)]);
      if (server.exitCode === null && server.signalCode === null) server.kill('SIGKILL');
    }
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('SIGINT', () => void stopServer().then(() => process.exit(130)));

  try {
    server = spawn(
      process.execPath,
      [
        SEMI_SPACE_FLAG,
        '--import',
        'tsx',
        join(ROOT, 'src/cli/main.ts'),
        'serve',
        '--port',
        String(port),
        '--host',
        '127.0.0.1',
      ],
      {
        cwd: ROOT,
        env: {
          ...parentEnv,
          DATA_DIR: dir,
          BASE_URL: base,
          ADMIN_TOKEN: adminToken,
          TECH_EVENTS_NOW: NOW,
          SEED: '1',
          SYNC_INTERVAL_MINUTES: '0',
          LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    server.stdout!.on('data', (d) => (output = (output + d).slice(-20_000)));
    server.stderr!.on('data', (d) => (output = (output + d).slice(-20_000)));
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (server.exitCode !== null) throw new Error(`the server exited early:\n${output}`);
      if (Date.now() > deadline) throw new Error(`the server did not become healthy:\n${output}`);
      try {
        if ((await fetch(`${base}/healthz`)).ok) break;
      } catch {
        // not listening yet
      }
      await sleep(100);
    }
    figures.rssMb.start = rssMb(server.pid!);

    // Keys through the admin API (the server owns the embedded database).
    const keys: string[] = [];
    for (let i = 0; i <= KEYS; i++) {
      const res = await fetch(`${base}/api/admin/keys`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${adminToken}`,
          'content-type': 'application/json',
          'x-forwarded-for': clientIp(),
        },
        body: JSON.stringify({ name: `Soak Host ${i}`, country: pick(['ch', 'de', 'at']) }),
      });
      if (res.status !== 201) throw new Error(`could not create a key: ${res.status} ${await res.text()}`);
      keys.push(((await res.json()) as { key: string }).key);
    }
    const floodKey = keys.pop()!;

    // What every acknowledged write implies, per key and externalId.
    const expected = new Map<string, Map<string, { title: string; lifecycle: 'listed' | 'cancelled' }>>();
    for (const key of keys) expected.set(key, new Map());
    const eventIds: string[] = ['devopsdays-zurich'];

    let running = true;
    const endAt = Date.now() + SECONDS * 1000;
    const cities = ['Zürich', 'Bern', 'Basel', 'Genf', 'Berlin', 'München', 'Hamburg', 'Wien', 'Graz'];
    const queries = [
      'AI meetups in Zürich next week',
      'devops',
      'KI in Berlin',
      'free workshops',
      'Kubernetes',
      'startups for founders',
      'Soak',
    ];

    const reader = async () => {
      while (running) {
        const q = encodeURIComponent(pick(queries));
        const country = pick(['ch', 'de', 'at']);
        const ip = clientIp();
        const which = Math.random();
        if (which < 0.3) await call('read', `${base}/api/events?country=${country}&q=${q}`, { ip });
        else if (which < 0.45) await call('read', `${base}/api/md?country=${country}&q=${q}`, { ip });
        else if (which < 0.55) await call('read', `${base}/api/calendar?country=${country}&q=${q}`, { ip });
        else if (which < 0.65) await call('read', `${base}/${country}?q=${q}`, { ip });
        else if (which < 0.75) await call('read', `${base}/${country}.md`, { ip });
        else if (which < 0.85) {
          const id = pick(eventIds);
          const res = await call('read', `${base}/ch/events/${id}`, { ip }, (s) => s === 200 || s === 404);
          if (res?.status === 404 && id === 'devopsdays-zurich') recordError('the seeded event page is missing');
        } else if (which < 0.95) {
          await call('read', `${base}/api/mcp`, {
            ip,
            method: 'POST',
            headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
            body: JSON.stringify({
              jsonrpc: '2.0',
              id: 1,
              method: 'tools/call',
              params: { name: 'search_events', arguments: { q: pick(queries), country } },
            }),
          });
        } else await call('read', `${base}/healthz`, { ip });
      }
    };

    const writer = async (w: number) => {
      const own = keys.filter((_, i) => i % WRITERS === w);
      let n = 0;
      const pausedUntil = new Map<string, number>();
      while (running) {
        const key = pick(own);
        const wait = (pausedUntil.get(key) ?? 0) - Date.now();
        if (wait > 0) {
          // This key is over its limit: use another, or wait like a well-behaved client.
          if (own.every((k) => (pausedUntil.get(k) ?? 0) > Date.now())) await sleep(Math.min(wait, 500));
          continue;
        }
        const mine = expected.get(key)!;
        const known = [...mine.keys()];
        const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
        const r = Math.random();
        let res: Awaited<ReturnType<typeof call>>;
        let effect: (() => void) | undefined;
        if (r < 0.5 || known.length === 0) {
          const externalId = `w${w}-${n++}`;
          const title = `Soak ${externalId} ${pick(['Meetup', 'Workshop', 'Night', 'Conf'])}`;
          res = await call('write', `${base}/api/events`, {
            method: 'POST',
            headers,
            ip: clientIp(),
            body: JSON.stringify({
              title,
              startAt: `2025-0${3 + Math.floor(Math.random() * 6)}-1${Math.floor(Math.random() * 9)}T18:30:00+01:00`,
              city: pick(cities),
              externalId,
              topics: ['ai-ml'],
            }),
          });
          effect = () => {
            mine.set(externalId, { title, lifecycle: 'listed' });
            const id = typeof res?.body === 'object' ? res.body.id : undefined;
            if (id && eventIds.length < 500) eventIds.push(id);
          };
        } else {
          const externalId = pick(known);
          const current = mine.get(externalId)!;
          if (r < 0.75) {
            const title = `${current.title.split(' v')[0]} v${n++}`;
            res = await call('write', `${base}/api/events`, {
              method: 'POST',
              headers,
              ip: clientIp(),
              body: JSON.stringify({
                title,
                startAt: '2025-05-10T18:30:00+02:00',
                city: 'Bern',
                externalId,
                topics: ['web'],
              }),
            });
            effect = () => mine.set(externalId, { ...current, title });
          } else if (r < 0.87) {
            res = await call('write', `${base}/api/events?externalId=${encodeURIComponent(externalId)}`, {
              method: 'DELETE',
              headers: { authorization: `Bearer ${key}` },
              ip: clientIp(),
            });
            effect = () => mine.set(externalId, { ...current, lifecycle: 'cancelled' });
          } else {
            res = await call('write', `${base}/api/events`, {
              method: 'POST',
              headers,
              ip: clientIp(),
              body: JSON.stringify({ action: 'restore', externalId }),
            });
            effect = () => mine.set(externalId, { ...current, lifecycle: 'listed' });
          }
        }
        if (res?.status === 429) pausedUntil.set(key, Date.now() + Number(res.headers.get('retry-after') ?? 1) * 1000);
        else if (res && res.status >= 200 && res.status < 300) {
          figures.writesAcknowledged++;
          effect?.();
        }
      }
    };

    // Deliberate overload: one address reading and one key writing as fast as they can.
    const floodReader = async () => {
      while (running) {
        const res = await call('read', `${base}/api/events?country=at&limit=1`, { ip: '203.0.113.99' });
        if (res?.status === 429) await sleep(20);
      }
    };
    const floodWriter = async () => {
      let i = 0;
      while (running) {
        const res = await call('write', `${base}/api/events`, {
          method: 'POST',
          headers: { authorization: `Bearer ${floodKey}`, 'content-type': 'application/json' },
          ip: '203.0.113.98',
          body: JSON.stringify({
            title: 'Flood',
            startAt: '2025-06-01T10:00:00Z',
            city: 'Wien',
            externalId: `flood-${i++ % 50}`,
          }),
        });
        if (res?.status === 429) await sleep(20);
      }
    };

    console.log(
      `soak: ${SECONDS} s against ${base} — ${READERS} readers, ${WRITERS} writers over ${keys.length} keys, flooders on one address and one key; limits ${process.env.RATE_LIMIT_READS_PER_MINUTE ?? 600} reads/min per address, ${process.env.RATE_LIMIT_WRITES_PER_MINUTE ?? 120} writes/min per key`,
    );
    const started = Date.now();
    const workers = [
      ...Array.from({ length: READERS }, reader),
      ...Array.from({ length: WRITERS }, (_, w) => writer(w)),
      ...Array.from({ length: 4 }, floodReader),
      floodWriter(),
    ];
    await sleep(Math.max(0, endAt - Date.now()));
    running = false;
    await Promise.all(workers);
    const elapsed = (Date.now() - started) / 1000;
    figures.rssMb.end = rssMb(server.pid!);

    // Every acknowledged write must be in mine=1, in its last acknowledged state, exactly once.
    for (const [key, events] of expected) {
      const res = await fetch(`${base}/api/events?mine=1`, {
        headers: { authorization: `Bearer ${key}`, 'x-forwarded-for': clientIp() },
      });
      if (res.status !== 200) {
        recordError(`mine=1: ${res.status}`);
        figures.writesLost += events.size;
        continue;
      }
      const body = (await res.json()) as { events: { externalId: string; title: string; lifecycle: string }[] };
      const seen = new Map<string, number>();
      for (const e of body.events) seen.set(e.externalId, (seen.get(e.externalId) ?? 0) + 1);
      for (const count of seen.values()) if (count > 1) figures.duplicates += count - 1;
      for (const [externalId, want] of events) {
        const got = body.events.find((e) => e.externalId === externalId);
        if (!got || got.title !== want.title || got.lifecycle !== want.lifecycle) {
          figures.writesLost++;
          if (errors.length < 20)
            errors.push(`lost ${externalId}: want ${JSON.stringify(want)}, got ${JSON.stringify(got)}`);
        }
      }
    }

    const sorted = [...latencies].sort((a, b) => a - b);
    const q = (p: number) =>
      Math.round((sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0) * 10) / 10;
    figures.latencyMs = { p50: q(0.5), p99: q(0.99), max: q(1) };

    console.log(
      `requests served:   ${figures.requests} (${figures.reads} reads, ${figures.writes} writes) in ${elapsed.toFixed(1)} s, ${Math.round(figures.requests / elapsed)}/s`,
    );
    console.log(
      `rate limited (429): ${figures.rateLimited.reads + figures.rateLimited.writes} (${figures.rateLimited.reads} reads, ${figures.rateLimited.writes} writes) — intended`,
    );
    console.log(`errors:            ${figures.errors}`);
    console.log(
      `writes acknowledged: ${figures.writesAcknowledged}, lost: ${figures.writesLost}, duplicated: ${figures.duplicates}`,
    );
    console.log(
      `latency ms:        p50 ${figures.latencyMs.p50}, p99 ${figures.latencyMs.p99}, max ${figures.latencyMs.max}`,
    );
    console.log(`server RSS MB:     ${figures.rssMb.start} → ${figures.rssMb.end}`);
    for (const e of errors) console.log(`  ! ${e}`);
    console.log(`SOAK ${JSON.stringify(figures)}`);
    if (server.exitCode !== null) {
      recordError(`the server exited during the run:\n${output}`);
    }
  } finally {
    await stopServer();
  }
  const failed = figures.errors > 0 || figures.writesLost > 0 || figures.duplicates > 0 || figures.requests === 0;
  process.exitCode = failed ? 1 : 0;
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
