/**
 * npm run soak — a bounded mixed read/write load against real server processes on loopback.
 *
 * Starts `tech-events serve` — on a temporary embedded database, or, with SOAK_DATABASE_URL (a PostgreSQL server),
 * SOAK_NODES (2) nodes on a fresh database of that server — seeded with the curated catalogue and default rate limits
 * unless the environment sets them, issues host keys through the admin API, then for SOAK_SECONDS runs, against
 * every node:
 *  - readers: JSON, markdown, iCal, pages, event pages and MCP searches, each request from one of many client
 *    addresses (X-Forwarded-For, trusted from the loopback peer), so that each client stays within its limit;
 *  - writers: creates, updates, cancels, restores, identical resends and batches (some `complete: true`) over a pool
 *    of keys, each write to any node, honouring Retry-After;
 *  - two flooders that deliberately exceed the limits (one address reading, one key writing): their 429s are the
 *    intended ones and are counted separately;
 *  - for the last SOAK_BURST_SECONDS (10), SOAK_BURST_CONNECTIONS (2,000) keep-alive connections opened at once,
 *    each a client reading back to back (scripts/soak-burst.ts): overload, to be refused early with 429 or 503 and
 *    Retry-After while connecting stays quick.
 * Then it compares every acknowledged write with the key's `mine=1` list (lost, duplicated) and every node's public
 * listing of each key's events with the database's (diverged), and prints requests served, errors (anything but a
 * 2xx, a 304 or a well-formed 429/503 with Retry-After), refusals, writes lost, duplicated and diverged, and the
 * burst's connect times, the new client's times and the longest wait of a read. Exit code 1 on any error, lost,
 * duplicated or diverged write, failed burst request, a connect of a second or more, a new client's p99 of a second
 * or more, or a read that waited longer than 3 s for its answer or refusal (SOAK_FAIRNESS=report: these two printed,
 * not checked).
 *
 * SOAK_SECONDS (60), SOAK_READERS (12), SOAK_WRITERS (4), SOAK_KEYS (16), SOAK_DATABASE_URL, SOAK_NODES (2 with a
 * database), SOAK_BURST_CONNECTIONS (2000), SOAK_BURST_SECONDS (10; 0 for none), SOAK_BURST_PROMPTS (`mixed`, or
 * `one-prompt`: the crowd asks one prompt over and over). While the crowd reads, a new client asks a prompt of its own
 * every 100 ms over a new connection (`new client:` in the output).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { serviceNodeFlags } from './service-node-flags.js';
import { type BurstFigures, burst } from './soak-burst.js';

const ROOT = resolve(import.meta.dirname, '..');
const SECONDS = Number(process.env.SOAK_SECONDS ?? 60);
const READERS = Number(process.env.SOAK_READERS ?? 12);
const WRITERS = Number(process.env.SOAK_WRITERS ?? 4);
const KEYS = Number(process.env.SOAK_KEYS ?? 16);
const DATABASE_URL = process.env.SOAK_DATABASE_URL || undefined;
const NODES = DATABASE_URL ? Number(process.env.SOAK_NODES ?? 2) : 1;
const BURST_CONNECTIONS = Number(process.env.SOAK_BURST_CONNECTIONS ?? 2000);
const BURST_SECONDS = Math.min(SECONDS, Number(process.env.SOAK_BURST_SECONDS ?? 10));
/** `one-prompt`: the crowd hammers one prompt (the issue's case of a crowd locking others out); else a mix. */
const BURST_PROMPTS = process.env.SOAK_BURST_PROMPTS ?? 'mixed';
const NOW = '2025-03-01T09:00:00Z'; // the curated catalogue's dates are around this
/** Issue 44: a new client under the crowd is answered within 1 s at p99. */
const NEW_CLIENT_P99_MS = 1_000;
/** The longest a read may wait before it is answered or refused (docs/operations.md, "Overload"): 3 s. */
const LONGEST_WAIT_MS = 3_000;
/** `report`: print the two figures above without failing on them (the suite's short run: not met yet, see performance.md). */
const FAIRNESS = process.env.SOAK_FAIRNESS ?? 'check';

interface Figures {
  nodes: number;
  requests: number;
  reads: number;
  writes: number;
  rateLimited: { reads: number; writes: number };
  /** 503s with Retry-After (`overloaded`, `storage-busy`): overload refused early, as intended. */
  refused: { reads: number; writes: number };
  errors: number;
  writesAcknowledged: number;
  writesLost: number;
  duplicates: number;
  /** Keys whose public listing on some node differs from the database's once the nodes have caught up. */
  diverged: number;
  latencyMs: { p50: number; p99: number; max: number };
  rssMb: { start: number; end: number };
  burst: BurstFigures | undefined;
}

const errors: string[] = [];
const latencies: number[] = [];
const figures: Figures = {
  nodes: NODES,
  requests: 0,
  reads: 0,
  writes: 0,
  rateLimited: { reads: 0, writes: 0 },
  refused: { reads: 0, writes: 0 },
  errors: 0,
  writesAcknowledged: 0,
  writesLost: 0,
  duplicates: 0,
  diverged: 0,
  latencyMs: { p50: 0, p99: 0, max: 0 },
  rssMb: { start: 0, end: 0 },
  burst: undefined,
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
/** What the workers read from an answer: the status, Retry-After, the body (an id, results, a problem code). */
interface Answer {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: JSON of several shapes, read where its shape is known
  body: any;
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
  const body = /json/.test(type) && text ? JSON.parse(text) : text;
  const refusal = (status: number, codes: string[]) =>
    res.status === status &&
    /^application\/problem\+json/.test(type) &&
    codes.includes(body?.code) &&
    Number(res.headers.get('retry-after')) >= 1;
  if (res.status === 429 || res.status === 503) {
    if (refusal(429, ['rate-limited'])) figures.rateLimited[kind === 'read' ? 'reads' : 'writes']++;
    else if (refusal(503, ['overloaded', 'storage-busy'])) figures.refused[kind === 'read' ? 'reads' : 'writes']++;
    else recordError(`${kind} ${url}: malformed ${res.status} ${text.slice(0, 200)}`);
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

/** A fresh database on the SOAK_DATABASE_URL server, dropped afterwards. */
async function createDatabase(serverUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `tev_soak_${randomBytes(5).toString('hex')}`;
  const run = async (statement: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await run(`CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => run(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

interface Node {
  base: string;
  process: ChildProcess;
  output: () => string;
}

async function startNode(storageEnv: Record<string, string>, adminToken: string): Promise<Node> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const { BASE_URL: _b, DATABASE_URL: _d, DATA_DIR: _dd, ...parentEnv } = process.env;
  const child = spawn(
    process.execPath,
    [
      // As `npm start` and bin/tech-events.js start the service.
      ...serviceNodeFlags(),
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
        ...storageEnv,
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
  let output = '';
  child.stdout!.on('data', (d) => (output = (output + d).slice(-20_000)));
  child.stderr!.on('data', (d) => (output = (output + d).slice(-20_000)));
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`a server exited early:\n${output}`);
    if (Date.now() > deadline) throw new Error(`a server did not become ready:\n${output}`);
    try {
      if ((await fetch(`${base}/readyz`)).ok) break;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  return { base, process: child, output: () => output };
}

async function stopNode(node: Node): Promise<void> {
  const child = node.process;
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await Promise.race([exited, sleep(10_000)]);
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

/** Every page of a listing, following `next`. */
async function allPages<E>(url: string, headers: Record<string, string>): Promise<E[] | undefined> {
  const events: E[] = [];
  let next: string | undefined = url;
  while (next) {
    const res: globalThis.Response = await fetch(next, { headers });
    if (res.status !== 200) return undefined;
    const body = (await res.json()) as { events: E[]; next?: string };
    events.push(...body.events);
    next = body.next;
  }
  return events;
}

type Expected = Map<string, { title: string; lifecycle: 'listed' | 'cancelled' }>;

async function main() {
  const adminToken = randomBytes(24).toString('hex');
  const dir = DATABASE_URL ? undefined : mkdtempSync(join(tmpdir(), 'tev-soak-'));
  const database = DATABASE_URL ? await createDatabase(DATABASE_URL) : undefined;
  const storageEnv: Record<string, string> = database ? { DATABASE_URL: database.url } : { DATA_DIR: dir! };
  const nodes: Node[] = [];
  const cleanUp = async () => {
    await Promise.all(nodes.map(stopNode));
    if (dir) rmSync(dir, { recursive: true, force: true });
    await database?.drop().catch(() => {});
  };
  process.once('SIGINT', () => void cleanUp().then(() => process.exit(130)));

  try {
    // All at once: each seeds the fresh database, one source at a time (imports of a source take its lock).
    const started = await Promise.allSettled(Array.from({ length: NODES }, () => startNode(storageEnv, adminToken)));
    for (const s of started) if (s.status === 'fulfilled') nodes.push(s.value);
    for (const s of started) if (s.status === 'rejected') throw s.reason;
    figures.rssMb.start = rssMb(nodes[0]!.process.pid!);
    const anyNode = () => pick(nodes).base;
    const base = nodes[0]!.base;

    // Keys through the admin API (the server owns the embedded database).
    const keys: { key: string; name: string }[] = [];
    for (let i = 0; i <= KEYS; i++) {
      const name = `Soak Host ${i}`;
      const res = await fetch(`${base}/api/admin/keys`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${adminToken}`,
          'content-type': 'application/json',
          'x-forwarded-for': clientIp(),
        },
        body: JSON.stringify({ name, country: pick(['ch', 'de', 'at']) }),
      });
      if (res.status !== 201) throw new Error(`could not create a key: ${res.status} ${await res.text()}`);
      keys.push({ key: ((await res.json()) as { key: string }).key, name });
    }
    const floodKey = keys.pop()!.key;

    // What every acknowledged write implies, per key and externalId.
    const expected = new Map<string, Expected>();
    for (const { key } of keys) expected.set(key, new Map());
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
        const node = anyNode();
        const which = Math.random();
        let res: Answer | undefined;
        if (which < 0.3) res = await call('read', `${node}/api/events?country=${country}&q=${q}`, { ip });
        else if (which < 0.45) res = await call('read', `${node}/api/md?country=${country}&q=${q}`, { ip });
        else if (which < 0.55) res = await call('read', `${node}/api/calendar?country=${country}&q=${q}`, { ip });
        else if (which < 0.65) res = await call('read', `${node}/${country}?q=${q}`, { ip });
        else if (which < 0.75) res = await call('read', `${node}/${country}.md`, { ip });
        else if (which < 0.85) {
          const id = pick(eventIds);
          res = await call('read', `${node}/ch/events/${id}`, { ip }, (s) => s === 200 || s === 404);
          if (res?.status === 404 && id === 'devopsdays-zurich') recordError('the seeded event page is missing');
        } else if (which < 0.95) {
          res = await call('read', `${node}/api/mcp`, {
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
        } else res = await call('read', `${node}/healthz`, { ip });
        // A refused reader waits as asked, like a polite client.
        if (res?.status === 503) await sleep(Number(res.headers.get('retry-after')) * 1000);
      }
    };

    const writer = async (w: number) => {
      const own = keys.filter((_, i) => i % WRITERS === w).map((k) => k.key);
      let n = 0;
      const pausedUntil = new Map<string, number>();
      const startAt = () =>
        `2025-0${3 + Math.floor(Math.random() * 6)}-1${Math.floor(Math.random() * 9)}T18:30:00+01:00`;
      while (running) {
        const key = pick(own);
        const wait = (pausedUntil.get(key) ?? 0) - Date.now();
        if (wait > 0) {
          // This key is over its limit, or its writes were refused: use another, or wait like a well-behaved client.
          if (own.every((k) => (pausedUntil.get(k) ?? 0) > Date.now())) await sleep(Math.min(wait, 500));
          continue;
        }
        const mine = expected.get(key)!;
        const known = [...mine.keys()];
        const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
        const post = (path: string, body: unknown) =>
          call('write', `${anyNode()}${path}`, { method: 'POST', headers, ip: clientIp(), body: JSON.stringify(body) });
        const r = Math.random();
        let res: Answer | undefined;
        let effect: (() => void) | undefined;
        if (r < 0.45 || known.length === 0) {
          const externalId = `w${w}-${n++}`;
          const title = `Soak ${externalId} ${pick(['Meetup', 'Workshop', 'Night', 'Conf'])}`;
          res = await post('/api/events', {
            title,
            startAt: startAt(),
            city: pick(cities),
            externalId,
            topics: ['ai-ml'],
          });
          effect = () => {
            mine.set(externalId, { title, lifecycle: 'listed' });
            const id = res?.body?.id;
            if (id && eventIds.length < 500) eventIds.push(id);
          };
        } else if (r < 0.55) {
          // A batch of a few known events renamed and one new; one in four is the key's complete list.
          const complete = Math.random() < 0.25;
          const items = [...new Set(Array.from({ length: 1 + Math.floor(Math.random() * 4) }, () => pick(known)))];
          items.push(`w${w}-${n++}`);
          const titles = new Map(items.map((x) => [x, `Soak ${x} batch ${n++}`]));
          res = await post('/api/events/batch', {
            complete,
            events: items.map((x) => ({ externalId: x, title: titles.get(x), startAt: startAt(), city: pick(cities) })),
          });
          effect = () => {
            for (const [x, title] of titles) {
              const lifecycle = complete ? 'listed' : (mine.get(x)?.lifecycle ?? 'listed');
              mine.set(x, { title, lifecycle });
            }
            if (complete) for (const [x, e] of mine) if (!titles.has(x)) mine.set(x, { ...e, lifecycle: 'cancelled' });
          };
        } else {
          const externalId = pick(known);
          const current = mine.get(externalId)!;
          if (r < 0.75) {
            const title = `${current.title.split(' v')[0]} v${n++}`;
            res = await post('/api/events', {
              title,
              startAt: '2025-05-10T18:30:00+02:00',
              city: 'Bern',
              externalId,
              topics: ['web'],
            });
            effect = () => mine.set(externalId, { ...current, title });
          } else if (r < 0.87) {
            res = await call('write', `${anyNode()}/api/events?externalId=${encodeURIComponent(externalId)}`, {
              method: 'DELETE',
              headers: { authorization: `Bearer ${key}` },
              ip: clientIp(),
            });
            effect = () => mine.set(externalId, { ...current, lifecycle: 'cancelled' });
          } else {
            res = await post('/api/events', { action: 'restore', externalId });
            effect = () => mine.set(externalId, { ...current, lifecycle: 'listed' });
          }
        }
        if (res?.status === 429 || res?.status === 503)
          pausedUntil.set(key, Date.now() + Number(res.headers.get('retry-after') ?? 1) * 1000);
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
        if (res?.status === 429 || res?.status === 503) await sleep(20);
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
        if (res?.status === 429 || res?.status === 503) await sleep(20);
      }
    };
    // The crowd: many connections at once for the last seconds, while the readers and writers go on.
    const crowd = async () => {
      if (BURST_SECONDS <= 0 || BURST_CONNECTIONS <= 0) return;
      await sleep(Math.max(0, endAt - BURST_SECONDS * 1000 - Date.now()));
      let i = 0;
      figures.burst = await burst(
        nodes.map((node) => node.base),
        BURST_CONNECTIONS,
        BURST_SECONDS,
        () => {
          if (BURST_PROMPTS === 'one-prompt') return '/api/events?country=ch&q=kotlin%20meetup';
          const q = encodeURIComponent(`${pick(queries)}${i++ % 4 === 0 ? ` ${i % 50}` : ''}`);
          const country = pick(['ch', 'de', 'at']);
          return pick([`/api/events?country=${country}&q=${q}`, `/${country}.md`, `/${country}?q=${q}`]);
        },
      );
    };

    console.log(
      `soak: ${SECONDS} s against ${NODES} node${NODES > 1 ? 's' : ''} (${database ? 'PostgreSQL' : 'PGlite'}) — ${READERS} readers, ${WRITERS} writers over ${keys.length} keys, flooders on one address and one key, ${BURST_SECONDS > 0 ? `${BURST_CONNECTIONS} connections at once for the last ${BURST_SECONDS} s` : 'no crowd'}; limits ${process.env.RATE_LIMIT_READS_PER_MINUTE ?? 600} reads/min per address, ${process.env.RATE_LIMIT_WRITES_PER_MINUTE ?? 120} writes/min per key`,
    );
    const startedAt = Date.now();
    const workers = [
      ...Array.from({ length: READERS }, reader),
      ...Array.from({ length: WRITERS }, (_, w) => writer(w)),
      ...Array.from({ length: 4 }, floodReader),
      floodWriter(),
    ];
    const crowding = crowd();
    await sleep(Math.max(0, endAt - Date.now()));
    running = false;
    await Promise.all([...workers, crowding]);
    const elapsed = (Date.now() - startedAt) / 1000;
    figures.rssMb.end = rssMb(nodes[0]!.process.pid!);

    // Every acknowledged write must be in mine=1, in its last acknowledged state, exactly once.
    const listed = new Map<string, Map<string, string>>();
    for (const { key } of keys) {
      const events = await allPages<{ id: string; externalId: string; title: string; lifecycle: string }>(
        `${base}/api/events?mine=1&limit=100`,
        { authorization: `Bearer ${key}`, 'x-forwarded-for': clientIp() },
      );
      const want = expected.get(key)!;
      if (!events) {
        recordError('mine=1 did not answer 200');
        figures.writesLost += want.size;
        continue;
      }
      listed.set(key, new Map(events.filter((e) => e.lifecycle === 'listed').map((e) => [e.id, e.title])));
      const seen = new Map<string, number>();
      for (const e of events) seen.set(e.externalId, (seen.get(e.externalId) ?? 0) + 1);
      for (const count of seen.values()) if (count > 1) figures.duplicates += count - 1;
      for (const [externalId, state] of want) {
        const got = events.find((e) => e.externalId === externalId);
        if (!got || got.title !== state.title || got.lifecycle !== state.lifecycle) {
          figures.writesLost++;
          if (errors.length < 20)
            errors.push(`lost ${externalId}: want ${JSON.stringify(state)}, got ${JSON.stringify(got)}`);
        }
      }
    }

    // Every node lists each key's listed events exactly as the database holds them, once it has caught up.
    const publicListing = async (node: string, name: string) => {
      const shown = new Map<string, string>();
      for (const country of ['ch', 'de', 'at']) {
        const url = `${node}/api/events?country=${country}&org=${encodeURIComponent(name)}&limit=100`;
        const events = await allPages<{ id: string; title: string }>(url, { 'x-forwarded-for': clientIp() });
        if (!events) return undefined;
        for (const e of events) shown.set(e.id, e.title);
      }
      return shown;
    };
    const same = (a: Map<string, string> | undefined, b: Map<string, string>) =>
      a !== undefined && a.size === b.size && [...b].every(([id, title]) => a.get(id) === title);
    for (const node of nodes) {
      for (let i = 0; i < 100 && (await fetch(`${node.base}/readyz`)).status !== 200; i++) await sleep(100);
    }
    for (const { key, name } of keys) {
      const want = listed.get(key);
      if (!want) continue;
      for (const node of nodes) {
        let shown = await publicListing(node.base, name);
        for (let i = 0; i < 30 && !same(shown, want); i++) {
          await sleep(100);
          shown = await publicListing(node.base, name);
        }
        if (!same(shown, want)) {
          figures.diverged++;
          if (errors.length < 20)
            errors.push(`diverged on ${node.base} for ${name}: ${shown?.size} shown, ${want.size} listed`);
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
    console.log(
      `refused (503):     ${figures.refused.reads + figures.refused.writes} (${figures.refused.reads} reads, ${figures.refused.writes} writes) — overload, intended`,
    );
    console.log(`errors:            ${figures.errors}`);
    console.log(
      `writes acknowledged: ${figures.writesAcknowledged}, lost: ${figures.writesLost}, duplicated: ${figures.duplicates}, diverged between nodes: ${figures.diverged}`,
    );
    console.log(
      `latency ms:        p50 ${figures.latencyMs.p50}, p99 ${figures.latencyMs.p99}, max ${figures.latencyMs.max}`,
    );
    const b = figures.burst;
    if (b) {
      console.log(
        `crowd:             ${b.connections} connections — connect ms (new client while it ran) p50 ${b.probeConnectMs.p50}, p99 ${b.probeConnectMs.p99}, max ${b.probeConnectMs.max}; answered ${b.answered}, refused ${b.refused[429]} × 429 and ${b.refused[503]} × 503, failed ${b.failed}; latency ms p50 ${b.latencyMs.p50}, p99 ${b.latencyMs.p99}, max ${b.latencyMs.max} (first answer of a connection: p50 ${b.firstAnswerMs.p50}, max ${b.firstAnswerMs.max})`,
      );
      const n = b.newcomer;
      console.log(
        `new client:        ${n.asked} prompts of its own, a new connection each — answered ${n.answered}, refused ${n.refused}, failed ${n.failed}; ms to the whole answer p50 ${n.ms.p50}, p99 ${n.ms.p99}, max ${n.ms.max} (slowest: ${n.slowest.map((a) => `${a.ms} ms ${a.status}`).join(', ')})`,
      );
      const w = b.memberWaitMs;
      console.log(
        `longest wait:      ${Math.round(Math.max(w.max, n.ms.max))} ms of any read answered or refused (limit ${LONGEST_WAIT_MS}); ${w.asked} reads of members of the crowd timed from an idle thread: p50 ${w.p50}, p99 ${w.p99}, max ${w.max}`,
      );
      console.log(
        `verdict:           new client p99 ${n.ms.p99} ms ${n.ms.p99 < NEW_CLIENT_P99_MS ? '<' : '≥'} ${NEW_CLIENT_P99_MS}; longest wait ${Math.round(Math.max(w.max, n.ms.max))} ms ${Math.max(w.max, n.ms.max) <= LONGEST_WAIT_MS ? '≤' : '>'} ${LONGEST_WAIT_MS}`,
      );
      for (const f of b.failures) console.log(`  ! crowd: ${f}`);
    }
    console.log(`server RSS MB:     ${figures.rssMb.start} → ${figures.rssMb.end}`);
    for (const e of errors) console.log(`  ! ${e}`);
    console.log(`SOAK ${JSON.stringify(figures)}`);
    for (const node of nodes) {
      if (node.process.exitCode !== null) recordError(`a server exited during the run:\n${node.output()}`);
    }
  } finally {
    await cleanUp();
  }
  const b = figures.burst;
  const failed =
    figures.errors > 0 ||
    figures.writesLost > 0 ||
    figures.duplicates > 0 ||
    figures.diverged > 0 ||
    figures.requests === 0 ||
    (b !== undefined &&
      (b.failed > 0 ||
        b.probeConnectMs.max >= 1000 ||
        (FAIRNESS === 'check' &&
          (b.newcomer.ms.p99 >= NEW_CLIENT_P99_MS ||
            Math.max(b.memberWaitMs.max, b.newcomer.ms.max) > LONGEST_WAIT_MS))));
  process.exitCode = failed ? 1 : 0;
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
