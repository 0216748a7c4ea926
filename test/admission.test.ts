import { rmSync } from 'node:fs';
import { Agent, createServer, request, type Server } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { ReadAdmission } from '../src/http/admission.js';
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

describe('reads admitted in turns', () => {
  let server: Server | undefined;
  const agents: Agent[] = [];
  afterEach(async () => {
    for (const agent of agents.splice(0)) agent.destroy();
    await new Promise((resolve) => server?.close(resolve));
  });

  /** A server whose every read costs `costMs` of the loop, behind the gate, and the order it answered in. */
  async function gatedServer(options: { costMs: number; maxWaitMs: number; crowd: number }) {
    const answered: string[] = [];
    const admission = new ReadAdmission({
      baseUrl: 'http://localhost',
      trustProxy: 'loopback,linklocal,uniquelocal',
      maxWaitMs: options.maxWaitMs,
      budgetMs: 2,
    });
    server = createServer(
      admission.gate((req, res) => {
        busy(options.costMs);
        answered.push(`${req.headers['x-forwarded-for']} ${req.url}`);
        res.end('ok');
      }),
    );
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    // The crowd's connections, open and known to the server before the crowd asks at once.
    const crowd = Array.from({ length: options.crowd }, () => new Agent({ keepAlive: true, maxSockets: 1 }));
    agents.push(...crowd);
    for (const agent of crowd) await get(port, '/warm-up', CROWD, agent);
    answered.length = 0;
    return { port, crowd, answered };
  }

  it('answers a newcomer’s read before the backlog of a crowd asking at once', async () => {
    const { port, crowd, answered } = await gatedServer({ costMs: 3, maxWaitMs: 30_000, crowd: 30 });
    const crowdAsks = crowd.map((agent, i) => get(port, `/crowd-${i}`, CROWD, agent));
    const newcomer = get(port, '/newcomer', '203.0.113.7');
    const answers = await Promise.all([...crowdAsks, newcomer]);
    expect(answers.every((a) => a.status === 200 && a.body === 'ok')).toBe(true);
    // The crowd's thirty reads arrived in one pass of the loop, before the newcomer's connection was even accepted;
    // without turns all thirty would be answered first. A pass answers reads for 2 ms (one here), the rest wait.
    expect(answered).toHaveLength(31);
    expect(answered.indexOf('203.0.113.7 /newcomer')).toBeLessThan(8);
  });

  it('refuses a read that would wait too long behind a backlog with a 503 its client can read, and answers the rest', async () => {
    const { port, crowd } = await gatedServer({ costMs: 2, maxWaitMs: 12, crowd: 100 });
    const answers = await Promise.all(crowd.map((agent, i) => get(port, `/crowd-${i}`, CROWD, agent)));
    const refused = answers.filter((a) => a.status === 503);
    expect(answers.filter((a) => a.status === 200).length).toBeGreaterThan(0);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.length + answers.filter((a) => a.status === 200).length).toBe(crowd.length);
    for (const answer of refused) {
      expect(answer.headers['content-type']).toBe('application/problem+json; charset=utf-8');
      expect(Number(answer.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(answer.headers['access-control-allow-origin']).toBe('*');
      expect(JSON.parse(answer.body)).toMatchObject({
        status: 503,
        code: 'overloaded',
        retryAfter: expect.any(Number),
      });
    }
    // The refused connections stay open for the client's next read.
    expect((await get(port, '/after', CROWD, crowd[0])).status).toBe(200);
  });
});

describe('the service’s listening sockets', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('pglite', { now: '2025-03-01T09:00:00Z', env: { SEED: '1' } });
  });
  afterAll(() => server?.close());

  it('take a crowd’s connections at once and answer every one', async () => {
    const port = Number(new URL(server.base).port);
    const agents = Array.from({ length: 200 }, () => new Agent({ keepAlive: true, maxSockets: 1 }));
    try {
      const answers = await Promise.all(
        agents.map((agent, i) => get(port, '/api/events?country=ch&limit=1', `198.51.${i >> 8}.${i & 255}`, agent)),
      );
      // Every connection is answered, whichever socket took it: with the listing, or, when a busy machine makes the
      // crowd wait too long, refused politely (503 with Retry-After, as docs/operations.md says of overload).
      const answered = answers.filter((a) => a.status === 200);
      const refused = answers.filter((a) => a.status === 503 && Number(a.headers['retry-after']) >= 1);
      expect(answered.length + refused.length).toBe(agents.length);
      expect(answered.length).toBeGreaterThanOrEqual(64);
      expect(new Set(answered.map((a) => JSON.parse(a.body).total)).size).toBe(1);
    } finally {
      for (const agent of agents) agent.destroy();
    }
  });

  it('hold MAX_CONNECTIONS for all of them together, whichever took a connection', async () => {
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

  it('are not shared with a second service started on the same port by mistake', async () => {
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
