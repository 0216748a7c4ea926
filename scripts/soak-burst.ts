/**
 * The overload phase of `npm run soak`: many keep-alive connections opened at once, each a client of its own
 * sending reads back to back for a while. What it measures: how long connecting took, and what the answers were —
 * answered (2xx/304), refused politely (429 or 503 with Retry-After, which these clients honour), or failed (408, a
 * reset, no answer, anything else).
 */
import { Agent, request } from 'node:http';
import { Worker } from 'node:worker_threads';

export interface BurstFigures {
  connections: number;
  /** How long the burst's own connections took to open, as seen by the busy client. */
  connectMs: { p50: number; p99: number; max: number };
  /** How long a new connection took to open while the burst ran, measured by an idle prober (every 50 ms). */
  probeConnectMs: { p50: number; p99: number; max: number };
  answered: number;
  /** 429 and 503 with a Retry-After: overload refused early, as intended. */
  refused: { 429: number; 503: number };
  /** 408s, resets, timeouts and anything else: each one an error of the run. */
  failed: number;
  latencyMs: { p50: number; p99: number; max: number };
  /** How long each connection waited for its first answer (all of them arrive at once). */
  firstAnswerMs: { p50: number; p99: number; max: number };
  /**
   * A new client while the crowd reads: every 100 ms a new connection asking a prompt nobody asked before, timed
   * from connecting to the last byte of the answer, whatever it is (answered, or refused with Retry-After).
   */
  newcomer: {
    asked: number;
    answered: number;
    refused: number;
    failed: number;
    ms: { p50: number; p99: number; max: number };
    /** The slowest few: how long, and what the answer was. */
    slowest: { ms: number; status: number }[];
  };
  /**
   * The crowd's reads as a few of its members saw them from the idle thread (see newcomers): how long each waited for
   * its answer or its refusal. The busy client's latencyMs also counts the time its own event loop took.
   */
  memberWaitMs: { asked: number; p50: number; p99: number; max: number };
  failures: string[];
}

const quantiles = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const q = (p: number) =>
    Math.round((sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0) * 10) / 10;
  return { p50: q(0.5), p99: q(0.99), max: q(1) };
};

/** Members of the crowd timed from the idle thread, beside the `connections` of the busy client. */
const MEMBERS_TIMED = 20;

/**
 * Opens `connections` connections spread over `bases` at once and reads through each for `seconds`. Each connection
 * is one client address (X-Forwarded-For), as a crowd behind a load balancer is.
 */
export async function burst(
  bases: string[],
  connections: number,
  seconds: number,
  paths: () => string,
): Promise<BurstFigures> {
  const connectMs: number[] = [];
  const latencies: number[] = [];
  const firstLatencies: number[] = [];
  const figures: BurstFigures = {
    connections,
    connectMs: { p50: 0, p99: 0, max: 0 },
    probeConnectMs: { p50: 0, p99: 0, max: 0 },
    answered: 0,
    refused: { 429: 0, 503: 0 },
    failed: 0,
    latencyMs: { p50: 0, p99: 0, max: 0 },
    firstAnswerMs: { p50: 0, p99: 0, max: 0 },
    newcomer: { asked: 0, answered: 0, refused: 0, failed: 0, ms: { p50: 0, p99: 0, max: 0 }, slowest: [] },
    memberWaitMs: { asked: 0, p50: 0, p99: 0, max: 0 },
    failures: [],
  };
  const fail = (what: string) => {
    figures.failed++;
    if (figures.failures.length < 10) figures.failures.push(what);
  };
  const until = Date.now() + seconds * 1000;
  const client = async (n: number) => {
    const base = new URL(bases[n % bases.length]!);
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const ip = `198.19.${(n >> 8) & 255}.${n & 255}`;
    let connected = false;
    let answeredOnce = false;
    while (Date.now() < until) {
      const path = paths();
      const started = performance.now();
      const answer = await new Promise<{ status: number; retryAfter: number } | { error: string }>((resolve) => {
        const req = request(
          { host: base.hostname, port: base.port, path, agent, headers: { 'x-forwarded-for': ip } },
          (res) => {
            res.resume();
            res.on('end', () =>
              resolve({ status: res.statusCode ?? 0, retryAfter: Number(res.headers['retry-after'] ?? 0) }),
            );
            res.on('error', (error) => resolve({ error: String(error) }));
          },
        );
        req.on('socket', (socket) => {
          if (connected) return;
          socket.once('connect', () => {
            connected = true;
            connectMs.push(performance.now() - started);
          });
        });
        req.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? String(error) }));
        // Far past the server's request timeout: a request still unanswered by then is a failure of the run.
        req.setTimeout(45_000, () => req.destroy(new Error('no answer within 45 s')));
        req.end();
      });
      if ('error' in answer) {
        fail(`${path}: ${answer.error}`);
        connected = false;
        await new Promise((r) => setTimeout(r, 100));
        continue;
      }
      latencies.push(performance.now() - started);
      if (firstLatencies.length < connections && !answeredOnce) firstLatencies.push(performance.now() - started);
      answeredOnce = true;
      if ((answer.status === 429 || answer.status === 503) && answer.retryAfter >= 1) {
        figures.refused[answer.status]++;
        // A polite client waits as asked (capped so that the run goes on).
        await new Promise((r) => setTimeout(r, Math.min(answer.retryAfter, 5) * 1000));
      } else if ((answer.status >= 200 && answer.status < 300) || answer.status === 304) figures.answered++;
      else fail(`${path}: ${answer.status}`);
    }
    agent.destroy();
  };
  const prober = probe(bases[0]!, seconds);
  const newcomer = newcomers(bases[0]!, seconds, Array.from({ length: MEMBERS_TIMED }, paths));
  await Promise.all(Array.from({ length: connections }, (_, n) => client(n)));
  figures.probeConnectMs = quantiles(await prober);
  const { asked, waits } = await newcomer;
  figures.memberWaitMs = { asked: waits.length, ...quantiles(waits.map((a) => a.ms)) };
  figures.newcomer = {
    asked: asked.length,
    answered: asked.filter((a) => a.status >= 200 && a.status < 300).length,
    refused: asked.filter((a) => (a.status === 429 || a.status === 503) && a.retryAfter).length,
    failed: asked.filter(
      (a) => !(a.status >= 200 && a.status < 300) && !((a.status === 429 || a.status === 503) && a.retryAfter),
    ).length,
    ms: quantiles(asked.map((a) => a.ms)),
    slowest: [...asked]
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 5)
      .map((a) => ({ ms: Math.round(a.ms), status: a.status })),
  };
  figures.connectMs = quantiles(connectMs);
  figures.latencyMs = quantiles(latencies);
  figures.firstAnswerMs = quantiles(firstLatencies);
  return figures;
}

/**
 * Opens a new connection every 50 ms for `seconds` and closes it once open, from a thread of its own whose event
 * loop is idle, so that the times are the server's (its accept queue) and not the busy client's. A connection not
 * open within 10 s counts as 10 s.
 */
function probe(base: string, seconds: number): Promise<number[]> {
  const { hostname, port } = new URL(base);
  const code = `
    const { connect } = require('node:net');
    const { parentPort, workerData } = require('node:worker_threads');
    const times = [];
    const until = Date.now() + workerData.seconds * 1000;
    const once = () => new Promise((resolve) => {
      const started = performance.now();
      const socket = connect(workerData.port, workerData.host);
      const done = () => { times.push(Math.min(performance.now() - started, 10000)); socket.destroy(); resolve(); };
      socket.once('connect', done);
      socket.once('error', done);
      socket.setTimeout(10000, done);
    });
    (async () => {
      while (Date.now() < until) {
        await Promise.all([once(), new Promise((r) => setTimeout(r, 50))]);
      }
      parentPort.postMessage(times);
    })();`;
  const worker = new Worker(code, { eval: true, workerData: { host: hostname, port: Number(port), seconds } });
  return new Promise((resolve, reject) => {
    worker.once('message', (times: number[]) => {
      void worker.terminate();
      resolve(times);
    });
    worker.once('error', reject);
  });
}

interface Asked {
  ms: number;
  status: number;
  retryAfter: boolean;
}

/**
 * New clients while the crowd reads, from a thread of its own whose event loop is idle (the times are the server's,
 * not the busy client's): every 100 ms a new connection asking `/api/events` for a prompt of its own, from an address
 * no other client of the run uses, timed to the end of the answer; one not answered within 30 s counts as 30 s and
 * status 0. Beside them, `members.length` more members of the crowd, each a keep-alive connection asking its path back
 * to back and honouring Retry-After like the rest: their times are the crowd's waits, measured as fairly.
 */
function newcomers(base: string, seconds: number, members: string[]): Promise<{ asked: Asked[]; waits: Asked[] }> {
  const { hostname, port } = new URL(base);
  const code = `
    const { Agent, request } = require('node:http');
    const { parentPort, workerData } = require('node:worker_threads');
    const asked = [];
    const until = Date.now() + workerData.seconds * 1000;
    const words = ['kotlin', 'rust', 'zürich', 'security', 'data', 'ai', 'frontend', 'devops', 'cloud', 'python'];
    const once = (n) => new Promise((resolve) => {
      const started = performance.now();
      const done = (status, retryAfter) => {
        asked.push({ ms: Math.min(performance.now() - started, 30000), status, retryAfter });
        resolve();
      };
      const q = encodeURIComponent(words[n % words.length] + ' ' + words[(n * 7) % words.length] + ' meetup ' + n);
      const req = request({
        host: workerData.host, port: workerData.port, path: '/api/events?country=ch&q=' + q, agent: false,
        headers: { 'x-forwarded-for': '100.64.' + ((n >> 8) & 255) + '.' + (n & 255), connection: 'close' },
      }, (res) => {
        res.resume();
        res.on('end', () => done(res.statusCode, res.headers['retry-after'] !== undefined));
        res.on('error', () => done(0, false));
      });
      req.on('error', () => done(0, false));
      req.setTimeout(30000, () => req.destroy());
      req.end();
    });
    const waits = [];
    const member = async (path, m) => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      while (Date.now() < until) {
        const started = performance.now();
        const answer = await new Promise((resolve) => {
          const req = request({
            host: workerData.host, port: workerData.port, path, agent,
            headers: { 'x-forwarded-for': '100.65.' + ((m >> 8) & 255) + '.' + (m & 255) },
          }, (res) => {
            res.resume();
            res.on('end', () => resolve({ status: res.statusCode, retryAfter: Number(res.headers['retry-after'] ?? 0) }));
            res.on('error', () => resolve({ status: 0, retryAfter: 0 }));
          });
          req.on('error', () => resolve({ status: 0, retryAfter: 0 }));
          req.setTimeout(30000, () => req.destroy());
          req.end();
        });
        waits.push({ ms: Math.min(performance.now() - started, 30000), status: answer.status, retryAfter: answer.retryAfter > 0 });
        if (answer.status === 0) await new Promise((r) => setTimeout(r, 100));
        else if (answer.retryAfter > 0) await new Promise((r) => setTimeout(r, Math.min(answer.retryAfter, 5) * 1000));
      }
      agent.destroy();
    };
    (async () => {
      const members = workerData.members.map(member);
      const pending = [];
      for (let n = 0; Date.now() < until; n++) {
        pending.push(once(n));
        await new Promise((r) => setTimeout(r, 100));
      }
      await Promise.all([...pending, ...members]);
      parentPort.postMessage({ asked, waits });
    })();`;
  const workerData = { host: hostname, port: Number(port), seconds, members };
  const worker = new Worker(code, { eval: true, workerData });
  return new Promise((resolve, reject) => {
    worker.once('message', (answers: { asked: Asked[]; waits: Asked[] }) => {
      void worker.terminate();
      resolve(answers);
    });
    worker.once('error', reject);
  });
}
