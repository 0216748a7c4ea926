import { rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { ReadAdmission, registerAdmission } from '../src/http/admission.js';
import { declared } from '../src/http/route-class.js';
import { createLogger } from '../src/observability/logger.js';
import { startService } from '../src/service.js';
import { createDataDir } from './helpers/engines.js';
import { CURATED_FEEDS_FILE, startTestServer, type TestServer } from './helpers/server.js';

const busy = (ms: number) => {
  const until = performance.now() + ms;
  while (performance.now() < until);
};

const CROWD = '198.51.100.1';

/** A GET over `agent` from the address `ip` (X-Forwarded-For, trusted from loopback), with its status and body. */
function get(port: number, path: string, ip: string, agent?: Agent) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }>(
    (resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path, agent, headers: { 'x-forwarded-for': ip } }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      });
      req.on('error', reject);
      req.end();
    },
  );
}

describe('reads admitted a turn of the loop at a time', () => {
  const limits = { turnMs: 2, queueLength: 1_024, maxWaitMs: 30_000 };
  /** Admits `n` reads that each cost `costMs`, and resolves with the order they started in and their refusals. */
  function crowd(admission: ReadAdmission, n: number, costMs: number) {
    const started: number[] = [];
    const refused: number[] = [];
    const all = Array.from(
      { length: n },
      (_, i) =>
        new Promise<void>((resolve) => {
          const start = () => {
            busy(costMs);
            started.push(i);
            resolve();
          };
          // As the hook does: at once when the turn allows, else in the queue.
          if (admission.startsNow()) start();
          else
            admission.wait(start, (retryAfter) => {
              refused.push(retryAfter);
              resolve();
            });
        }),
    );
    return Promise.all(all).then(() => ({ started, refused }));
  }

  it('starts reads at once while the turn has time, then in arrival order in later turns, polling I/O between', async () => {
    const admission = new ReadAdmission(limits);
    let polled = 0;
    // A timer stands for I/O: it can only run between turns.
    const poll = setInterval(() => polled++, 0);
    try {
      const { started, refused } = await crowd(admission, 40, 1);
      expect(refused).toEqual([]);
      expect(started).toEqual(Array.from({ length: 40 }, (_, i) => i));
      // Forty reads of 1 ms in turns of 2 ms: the loop came round many times while they ran.
      expect(polled).toBeGreaterThan(5);
      expect(admission.queued).toBe(0);
    } finally {
      clearInterval(poll);
    }
  });

  it('refuses a read past the queue’s length at once, with a second to wait', async () => {
    const admission = new ReadAdmission({ ...limits, queueLength: 10 });
    const { started, refused } = await crowd(admission, 40, 1);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.every((seconds) => seconds === 1)).toBe(true);
    expect(started.length + refused.length).toBe(40);
  });

  it('refuses a read that waited its longest, saying when to come back', async () => {
    const admission = new ReadAdmission({ turnMs: 2, queueLength: 1_024, maxWaitMs: 30 });
    const { started, refused } = await crowd(admission, 100, 2);
    expect(started.length).toBeGreaterThan(0);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.every((seconds) => seconds === 1)).toBe(true);
    expect(started.length + refused.length).toBe(100);
    expect(admission.queued).toBe(0);
  });
  it('lets a read leave the queue when its client goes: it is neither started nor refused, and frees its place', async () => {
    const admission = new ReadAdmission({ turnMs: 2, queueLength: 1, maxWaitMs: 50 });
    const calls: string[] = [];
    // A read starts this turn and spends it: the next one waits.
    expect(admission.startsNow()).toBe(true);
    busy(3);
    expect(admission.startsNow()).toBe(false);
    const leave = admission.wait(
      () => calls.push('started'),
      () => calls.push('refused'),
    );
    expect(admission.queued).toBe(1);
    leave();
    expect(admission.queued).toBe(0);
    // Its place is free for the next read; the one that left is never heard of again, even past its longest wait.
    const next = new Promise<string>((resolve) =>
      admission.wait(
        () => resolve('started'),
        () => resolve('refused'),
      ),
    );
    expect(await next).toBe('started');
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(calls).toEqual([]);
  });
});

describe('the admission in a Fastify app', () => {
  it('holds reads and never a write: a write sent behind a crowd of slow reads is answered before most of them', async () => {
    const app = Fastify();
    registerAdmission(app, { turnMs: 2, queueLength: 1_024, maxWaitMs: 30_000 });
    const answered: string[] = [];
    app.get('/slow', declared('read'), async () => {
      busy(3);
      answered.push('read');
      return 'ok';
    });
    app.post('/write', declared('write'), async () => {
      answered.push('write');
      return 'ok';
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const port = (app.server.address() as AddressInfo).port;
    const agents = Array.from({ length: 30 }, () => new Agent({ keepAlive: true, maxSockets: 1 }));
    try {
      for (const agent of agents) await get(port, '/slow', CROWD, agent);
      answered.length = 0;
      const reads = agents.map((agent) => get(port, '/slow', CROWD, agent));
      const write = fetch(`http://127.0.0.1:${port}/write`, { method: 'POST' });
      await Promise.all([...reads, write]);
      expect(answered).toHaveLength(31);
      expect(answered.indexOf('write')).toBeLessThan(15);
    } finally {
      for (const agent of agents) agent.destroy();
      await app.close();
    }
  });
});

describe('the service’s listening socket', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('pglite', { now: '2025-03-01T09:00:00Z', env: { SEED: '1' } });
  });
  afterAll(() => server?.close());

  it('takes a crowd’s connections at once and answers every one', async () => {
    const port = Number(new URL(server.base).port);
    const agents = Array.from({ length: 200 }, () => new Agent({ keepAlive: true, maxSockets: 1 }));
    try {
      const answers = await Promise.all(
        agents.map((agent, i) => get(port, '/api/events?country=ch&limit=1', `198.51.${i >> 8}.${i & 255}`, agent)),
      );
      // Every connection is answered: with the listing, or, when a busy machine makes the crowd wait too long,
      // refused politely (503 with Retry-After, as docs/operations.md says of overload).
      const answered = answers.filter((a) => a.status === 200);
      const refused = answers.filter((a) => a.status === 503 && Number(a.headers['retry-after']) >= 1);
      expect(answered.length + refused.length).toBe(agents.length);
      expect(answered.length).toBeGreaterThanOrEqual(64);
      expect(new Set(answered.map((a) => JSON.parse(a.body).total)).size).toBe(1);
    } finally {
      for (const agent of agents) agent.destroy();
    }
  });

  it('holds MAX_CONNECTIONS', async () => {
    const limited = await startTestServer('pglite', { env: { MAX_CONNECTIONS: '20' } });
    const port = Number(new URL(limited.base).port);
    const sockets = Array.from({ length: 60 }, () => connect(port, '127.0.0.1'));
    try {
      // Each asks once and keeps its connection: those over the limit are closed unanswered.
      const answered = await Promise.all(
        sockets.map(
          (socket) =>
            new Promise<boolean>((resolve) => {
              socket.once('data', () => resolve(true));
              socket.once('close', () => resolve(false));
              socket.once('error', () => resolve(false));
              socket.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n');
            }),
        ),
      );
      expect(answered.filter(Boolean)).toHaveLength(20);
    } finally {
      for (const socket of sockets) socket.destroy();
      await limited.close();
    }
  });

  it('is not shared with a second service started on the same port by mistake', async () => {
    const port = Number(new URL(server.base).port);
    const dataDir = createDataDir();
    const config = loadConfig({
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SYNC_INTERVAL_MINUTES: '0',
      FEEDS_FILE: CURATED_FEEDS_FILE,
    });
    try {
      await expect(startService(config, createLogger('silent'))).rejects.toMatchObject({ code: 'EADDRINUSE' });
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
