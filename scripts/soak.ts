import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createDatabase } from './fresh-database.js';
import { burst } from './soak-burst.js';
import {
  allPages,
  issueKeys,
  listingOnceCaughtUp,
  type Node,
  rssMb,
  sameListing,
  sleep,
  startNode,
  stopNode,
} from './soak-nodes.js';
import { type RunningProxy, startProxy } from './soak-proxy.js';
import { failed, newFigures, printFigures } from './soak-report.js';

const _ROOT = resolve(import.meta.dirname, '..');
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
/** `report`: print the two figures above without failing on them (the suite's short run: not met yet, see performance.md). */
const FAIRNESS = process.env.SOAK_FAIRNESS ?? 'check';
/** `haproxy`: every client goes through Debian's HAProxy with the shipped deploy/haproxy/haproxy.cfg. */
const PROXY = process.env.SOAK_PROXY;

const errors: string[] = [];
const latencies: number[] = [];
const figures = newFigures(NODES);

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
/** One of 2000 client addresses: real traffic comes from many clients, each well within its limit. */
const clientIp = () => `198.18.${Math.floor(Math.random() * 8)}.${1 + Math.floor(Math.random() * 250)}`;
type Expected = Map<string, { title: string; lifecycle: 'listed' | 'cancelled' }>;

async function main() {
  const adminToken = randomBytes(24).toString('hex');
  const dir = DATABASE_URL ? undefined : mkdtempSync(join(tmpdir(), 'tev-soak-'));
  const database = DATABASE_URL ? await createDatabase(DATABASE_URL, 'tev_soak') : undefined;
  const storageEnv: Record<string, string> = database ? { DATABASE_URL: database.url } : { DATA_DIR: dir! };
  const nodes: Node[] = [];
  let proxy: RunningProxy | undefined;
  const cleanUp = async () => {
    await proxy?.stop();
    await Promise.all(nodes.map(stopNode));
    if (dir) rmSync(dir, { recursive: true, force: true });
    await database?.drop().catch(() => {});
  };
  process.once('SIGINT', () => void cleanUp().then(() => process.exit(130)));

  try {
    // All at once: each seeds the fresh database, one source at a time (imports of a source take its lock).
    const started = await Promise.allSettled(
      Array.from({ length: NODES }, () => startNode(storageEnv, adminToken, NOW)),
    );
    for (const s of started) if (s.status === 'fulfilled') nodes.push(s.value);
    for (const s of started) if (s.status === 'rejected') throw s.reason;
    figures.rssMb.start = rssMb(nodes[0]!.process.pid!);
    if (PROXY === 'haproxy') proxy = await startProxy(nodes.map((node) => node.base));
    else if (PROXY) throw new Error(`SOAK_PROXY=${PROXY}: the shipped proxy configuration is haproxy`);
    // Where clients connect: the proxy, or any node.
    const entries = proxy ? [proxy.base] : nodes.map((node) => node.base);
    const anyNode = () => pick(entries);
    const base = entries[0]!;

    const keys = await issueKeys(base, adminToken, KEYS + 1, clientIp);
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
      figures.burst = await burst(entries, BURST_CONNECTIONS, BURST_SECONDS, () => {
        if (BURST_PROMPTS === 'one-prompt') return '/api/events?country=ch&q=kotlin%20meetup';
        const q = encodeURIComponent(`${pick(queries)}${i++ % 4 === 0 ? ` ${i % 50}` : ''}`);
        const country = pick(['ch', 'de', 'at']);
        return pick([`/api/events?country=${country}&q=${q}`, `/${country}.md`, `/${country}?q=${q}`]);
      });
    };

    console.log(
      `soak: ${SECONDS} s against ${NODES} node${NODES > 1 ? 's' : ''}${proxy ? ' behind HAProxy' : ''} (${database ? 'PostgreSQL' : 'PGlite'}) — ${READERS} readers, ${WRITERS} writers over ${keys.length} keys, flooders on one address and one key, ${BURST_SECONDS > 0 ? `${BURST_CONNECTIONS} connections at once for the last ${BURST_SECONDS} s` : 'no crowd'}; limits ${process.env.RATE_LIMIT_READS_PER_MINUTE ?? 600} reads/min per address, ${process.env.RATE_LIMIT_WRITES_PER_MINUTE ?? 120} writes/min per key`,
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
    for (const node of nodes) {
      for (let i = 0; i < 100 && (await fetch(`${node.base}/readyz`)).status !== 200; i++) await sleep(100);
    }
    for (const { key, name } of keys) {
      const want = listed.get(key);
      if (!want) continue;
      for (const node of nodes) {
        const shown = await listingOnceCaughtUp(node.base, name, want, clientIp);
        if (!sameListing(shown, want)) {
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

    printFigures(figures, errors, elapsed);
    for (const node of nodes) {
      if (node.process.exitCode !== null) recordError(`a server exited during the run:\n${node.output()}`);
    }
  } finally {
    await cleanUp();
  }
  process.exitCode = failed(figures, FAIRNESS) ? 1 : 0;
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
