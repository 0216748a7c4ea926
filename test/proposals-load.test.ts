import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { communityHost } from './helpers/community-host.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const NOW = '2026-11-26T10:00:00Z';

interface Answer {
  status: number;
  ms: number;
  retryAfter: string | undefined;
  body: string;
}

/** One request from a given client address (all of 127.0.0.0/8 is loopback): its answer and how long it took. */
function from(localAddress: string, url: string, json?: unknown): Promise<Answer> {
  const started = performance.now();
  const body = json === undefined ? undefined : JSON.stringify(json);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      {
        method: body ? 'POST' : 'GET',
        localAddress,
        agent: false,
        headers: body ? { 'content-type': 'application/json' } : {},
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () =>
          resolve({
            status: res.statusCode!,
            ms: performance.now() - started,
            retryAfter: res.headers['retry-after'] as string | undefined,
            body: text,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A crowd of proposals from one address: the per-address limit answers 429 with Retry-After past its allowance, the
 * previews of those taken are read a few at a time, and reads from another address do not slow meanwhile.
 */
describe('200 proposals from one address in a minute', () => {
  const host = communityHost();
  let svc: TestServer;
  let cal: string;

  beforeAll(async () => {
    cal = await host.listen();
    svc = await startTestServer('pglite', {
      now: NOW,
      // RATE_LIMIT_PROPOSALS_PER_HOUR as shipped (20); the catalogue of the curated feed to read from.
      env: { CALENDARS_ALLOW_PRIVATE_ADDRESSES: '127.0.0.1/32', SEED: '1' },
    });
  }, 120_000);
  afterAll(async () => {
    await svc?.close();
    await host.close();
  });

  it('answers 429 with Retry-After past the limit, while reads stay < 100 ms at p99', async () => {
    const proposals = `${svc.base}/api/calendars/proposals`;
    const queries = ['country=ch', 'country=de&topic=ai-ml', 'q=rust', 'city=Zürich', 'country=at&format=online'];
    const readUrl = (i: number) => `${svc.base}/api/events?${queries[i % queries.length]}&limit=${1 + (i % 40)}`;
    // Warm, as a service that has run a while is: each query answered once, a few proposals (from a third address)
    // taken and read.
    for (let i = 0; i < 40; i++) await from('127.0.0.2', readUrl(i));
    for (let i = 0; i < 3; i++)
      expect((await from('127.0.0.3', proposals, { url: `${cal}/group-warm-${i}/events/ical/` })).status).toBe(202);
    const taken = svc.service.ctx.proposals;
    const previewsRead = async () => {
      for (const until = Date.now() + 60_000; Date.now() < until; ) {
        if ((await taken.list({ state: 'reading' })).length === 0) return;
        await sleep(50);
      }
    };
    await previewsRead();

    let proposing = true;
    const reads: number[] = [];
    const reader = async () => {
      for (let i = 0; proposing; i++) {
        const { status, ms } = await from('127.0.0.2', readUrl(i));
        expect(status).toBe(200);
        reads.push(ms);
        await sleep(20);
      }
    };
    const readers = Promise.all([reader(), reader()]);

    // 200 proposals from 127.0.0.1 within the minute: one every 100 ms, a few in flight at once.
    const started = Date.now();
    const answers: Answer[] = [];
    await Promise.all(
      Array.from({ length: 200 }, async (_, i) => {
        await sleep(i * 100);
        answers.push(await from('127.0.0.1', proposals, { url: `${cal}/group-${i}/events/ical/`, city: 'Zürich' }));
      }),
    );
    await previewsRead();
    proposing = false;
    await readers;
    expect(Date.now() - started).toBeLessThan(60_000);

    expect(answers.filter((a) => a.status === 202)).toHaveLength(20);
    const limited = answers.filter((a) => a.status === 429);
    expect(limited).toHaveLength(180);
    for (const a of limited) {
      expect(JSON.parse(a.body).code).toBe('rate-limited');
      expect(Number(a.retryAfter)).toBeGreaterThan(0);
    }
    expect(await taken.list({ state: 'reading' })).toEqual([]);
    const waiting = await taken.list({ state: 'waiting' });
    expect(waiting).toHaveLength(23);
    expect(waiting.every((p) => (p.preview as { state: string }).state === 'ok')).toBe(true);
    // The previews were read a few at a time, never all at once.
    expect(host.maxInFlight()).toBeLessThanOrEqual(2);

    expect(reads.length).toBeGreaterThan(200);
    expect(quantile(reads, 0.99)).toBeLessThan(100);
  }, 120_000);
});
