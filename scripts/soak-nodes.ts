/**
 * The service processes `npm run soak` runs against: started as `npm start` starts them on a free loopback port, on
 * the embedded engine or a fresh database of a PostgreSQL server, and stopped; and what is read off them.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { serviceNodeFlags } from './service-node-flags.js';

const ROOT = resolve(import.meta.dirname, '..');
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer();
    s.once('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => res(port));
    });
  });
}

export const rssMb = (pid: number) => {
  try {
    const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
    return Math.round(kb / 1024);
  } catch {
    return 0;
  }
};

export interface Node {
  base: string;
  process: ChildProcess;
  output: () => string;
}

export async function startNode(storageEnv: Record<string, string>, adminToken: string, now: string): Promise<Node> {
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
        TECH_EVENTS_NOW: now,
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

export async function stopNode(node: Node): Promise<void> {
  const child = node.process;
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await Promise.race([exited, sleep(10_000)]);
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

/** Every page of a listing, following `next`. */
export async function allPages<E>(url: string, headers: Record<string, string>): Promise<E[] | undefined> {
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

/** `count` host keys issued through the admin API (the server owns the embedded database), from addresses of `ip`. */
export async function issueKeys(
  base: string,
  adminToken: string,
  count: number,
  ip: () => string,
): Promise<{ key: string; name: string }[]> {
  const keys: { key: string; name: string }[] = [];
  for (let i = 0; i < count; i++) {
    const name = `Soak Host ${i}`;
    const res = await fetch(`${base}/api/admin/keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json', 'x-forwarded-for': ip() },
      body: JSON.stringify({ name, country: ['ch', 'de', 'at'][i % 3] }),
    });
    if (res.status !== 201) throw new Error(`could not create a key: ${res.status} ${await res.text()}`);
    keys.push({ key: ((await res.json()) as { key: string }).key, name });
  }
  return keys;
}

/** The events a node lists publicly for an organiser in all three countries (id → title); undefined if it fails. */
async function publicListing(node: string, name: string, ip: () => string): Promise<Map<string, string> | undefined> {
  const shown = new Map<string, string>();
  for (const country of ['ch', 'de', 'at']) {
    const url = `${node}/api/events?country=${country}&org=${encodeURIComponent(name)}&limit=100`;
    const events = await allPages<{ id: string; title: string }>(url, { 'x-forwarded-for': ip() });
    if (!events) return undefined;
    for (const e of events) shown.set(e.id, e.title);
  }
  return shown;
}

export const sameListing = (a: Map<string, string> | undefined, b: Map<string, string>) =>
  a !== undefined && a.size === b.size && [...b].every(([id, title]) => a.get(id) === title);

/** A node's public listing of an organiser once it equals `want`, or as it is after three seconds of asking. */
export async function listingOnceCaughtUp(
  node: string,
  name: string,
  want: Map<string, string>,
  ip: () => string,
): Promise<Map<string, string> | undefined> {
  let shown = await publicListing(node, name, ip);
  for (let i = 0; i < 30 && !sameListing(shown, want); i++) {
    await sleep(100);
    shown = await publicListing(node, name, ip);
  }
  return shown;
}
