import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';
import { type Response, request } from './helpers/http.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const event = (externalId: string) => ({
  title: `Limit ${externalId}`,
  startAt: '2030-05-01T18:00:00+02:00',
  city: 'Bern',
  externalId,
});

/** Sends raw bytes and resolves with everything the server answers until it closes the connection. */
function rawExchange(
  port: number,
  chunks: { data: string; afterMs?: number }[],
): Promise<{ text: string; ms: number }> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = connect(port, '127.0.0.1');
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (d) => {
      text += d;
    });
    socket.on('error', () => {}); // a reset after the answer is fine: the text is what matters
    socket.on('close', () => resolve({ text, ms: Date.now() - started }));
    socket.on('connect', async () => {
      for (const chunk of chunks) {
        if (chunk.afterMs) await new Promise((r) => setTimeout(r, chunk.afterMs));
        if (socket.destroyed) return;
        socket.write(chunk.data);
      }
    });
    setTimeout(() => {
      socket.destroy();
      reject(new Error(`no close within 15 s; got: ${text}`));
    }, 15_000).unref();
  });
}

function problemOf(raw: string): { status: number; headers: string; body: any } {
  const [head, body] = raw.split('\r\n\r\n');
  return { status: Number(head!.split(' ')[1]), headers: head!, body: JSON.parse(body!) };
}

function expectRateLimited(res: Response, base: string) {
  expect(res.status).toBe(429);
  expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(res.body).toMatchObject({ status: 429, code: 'rate-limited', type: `${base}/problems/rate-limited` });
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
  expect(res.body.retryAfter).toBeGreaterThanOrEqual(1);
}

describe('rate limits, size limits and timeouts', () => {
  let server: TestServer;
  let port: number;
  const WRITES = 5;
  const READS = 8;

  beforeAll(async () => {
    server = await startTestServer('pglite', {
      env: {
        RATE_LIMIT_WRITES_PER_MINUTE: String(WRITES),
        RATE_LIMIT_READS_PER_MINUTE: String(READS),
        REQUEST_TIMEOUT_MS: '1000',
      },
    });
    port = Number(new URL(server.base).port);
  });
  afterAll(() => server?.close());

  /** Each test reads as its own client (the server trusts X-Forwarded-For from its loopback peer by default). */
  const as = (ip: string) => ({ 'x-forwarded-for': ip });

  it('limits reads per client address: 429 problem+json with Retry-After, other clients unaffected', async () => {
    const api = `${server.base}/api/events?country=de`;
    for (let i = 0; i < READS; i++) {
      const res = await request(api, { headers: as('203.0.113.1') });
      expect(res.status, `read ${i + 1}`).toBe(200);
      expect(Number(res.headers.get('x-ratelimit-remaining'))).toBe(READS - i - 1);
    }
    expectRateLimited(await request(api, { headers: as('203.0.113.1') }), server.base);
    // Every read shape counts in the same bucket: markdown, pages, unknown paths.
    expect((await request(`${server.base}/ch.md`, { headers: as('203.0.113.1') })).status).toBe(429);
    expect((await request(`${server.base}/`, { headers: as('203.0.113.1') })).status).toBe(429);
    expectRateLimited(await request(`${server.base}/no/such/path`, { headers: as('203.0.113.1') }), server.base);
    // Another client is not affected.
    expect((await request(api, { headers: as('203.0.113.2') })).status).toBe(200);
  });

  it('never limits the health check or CORS preflights', async () => {
    const ip = as('203.0.113.3');
    for (let i = 0; i < READS + 5; i++) {
      expect((await request(`${server.base}/healthz`, { headers: ip })).status).toBe(200);
      const preflight = await fetch(`${server.base}/api/events`, {
        method: 'OPTIONS',
        headers: { ...ip, origin: 'https://example.org', 'access-control-request-method': 'POST' },
      });
      expect(preflight.status).toBe(204);
    }
    expect((await request(`${server.base}/api/events`, { headers: ip })).status).toBe(200);
  });

  it('limits writes per key, separately from reads; a limited write changes nothing', async () => {
    const key = await server.createKey('Busy Host');
    const other = await server.createKey('Quiet Host');
    const ip = as('203.0.113.4');
    const api = `${server.base}/api/events`;
    for (let i = 0; i < WRITES; i++) {
      const res = await request(api, { key, json: event(`busy-${i}`), headers: ip });
      expect(res.status, `write ${i + 1}`).toBe(201);
    }
    const limited = await request(api, { key, json: event('busy-over'), headers: ip });
    expectRateLimited(limited, server.base);
    expect(limited.body.detail).toMatch(/writes per minute for this key/);
    // DELETE counts as a write too.
    expect((await request(`${api}?externalId=busy-0`, { key, method: 'DELETE', headers: ip })).status).toBe(429);
    // Another key writes from the same address.
    expect((await request(api, { key: other, json: event('quiet-1'), headers: ip })).status).toBe(201);
    // Reads of the limited key are in their own (per-address) bucket: mine=1 works and shows nothing of the 429s.
    const mine = await request(`${api}?mine=1`, { key, headers: as('203.0.113.5') });
    expect(mine.status).toBe(200);
    expect(mine.body.events.map((e: { externalId: string }) => e.externalId).sort()).toEqual(
      Array.from({ length: WRITES }, (_, i) => `busy-${i}`).sort(),
    );
    expect(mine.body.events.every((e: { lifecycle: string }) => e.lifecycle === 'listed')).toBe(true);
  });

  it("counts RSVPs and a host's RSVP verbs (PUT capacity too) as the key's writes; a limited one stores nothing", async () => {
    const host = await server.createKey('Meetup Host');
    const guest = await server.createKey('Eager Guest');
    const ip = as('203.0.113.6');
    expect(
      (await request(`${server.base}/api/events`, { key: host, json: event('rsvp-me'), headers: ip })).status,
    ).toBe(201);
    const rsvp = `${server.base}/api/events/limit-rsvp-me/rsvp`;
    for (let i = 0; i < WRITES; i++) {
      const res = await request(rsvp, { key: guest, method: i % 2 ? 'DELETE' : 'POST', headers: ip });
      expect(res.status, `rsvp ${i + 1}: ${res.text}`).toBe(200);
    }
    const limited = await request(rsvp, { key: guest, method: 'DELETE', headers: ip });
    expectRateLimited(limited, server.base);
    expect(limited.body.detail).toMatch(/writes per minute for this key/);
    // Still registered (the fifth was a POST): the refused withdrawal changed nothing. Reads are not writes.
    expect((await request(rsvp, { key: guest, headers: as('203.0.113.7') })).body.status).toBe('registered');
    for (let i = 1; i < WRITES; i++) {
      const capacity = `${server.base}/api/events/limit-rsvp-me/capacity`;
      const res = await request(capacity, { key: host, method: 'PUT', json: { capacity: 10 + i }, headers: ip });
      expect(res.status, res.text).toBe(200);
    }
    const capacity = `${server.base}/api/events/limit-rsvp-me/capacity`;
    expect((await request(capacity, { key: host, method: 'PUT', json: { capacity: 99 }, headers: ip })).status).toBe(
      429,
    );
  });

  it("does not let a forged token carrying another key's id use up that key's allowance", async () => {
    const victim = await server.createKey('Victim Host');
    const id = victim.split('_')[1]!;
    const api = `${server.base}/api/events`;
    for (let i = 0; i < WRITES + 3; i++) {
      const forged = `tev_${id}_${'A'.repeat(42)}${String.fromCharCode(66 + i)}`;
      const res = await request(api, { key: forged, json: event(`forged-${i}`), headers: as('203.0.113.6') });
      expect([401, 429]).toContain(res.status);
    }
    expect((await request(api, { key: victim, json: event('victim-1'), headers: as('203.0.113.6') })).status).toBe(201);
  });

  it('answers headers over 16 KiB with 431 problem+json', async () => {
    const res = await request(`${server.base}/api/events`, { headers: { 'x-padding': 'a'.repeat(20 * 1024) } });
    expect(res.status).toBe(431);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ status: 431, code: 'headers-too-large' });
    // Within the limit is fine.
    const ok = await request(`${server.base}/api/events`, {
      headers: { 'x-padding': 'a'.repeat(8 * 1024), ...as('203.0.113.7') },
    });
    expect(ok.status).toBe(200);
  });

  it('answers an overlong path parameter with a 404 problem, a long URL within the header limit too', async () => {
    const long = await request(`${server.base}/ch/events/${'a'.repeat(1000)}`, { headers: as('203.0.113.8') });
    expect(long.status).toBe(404);
    expect(long.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const huge = await request(`${server.base}/api/events?q=${'a'.repeat(20 * 1024)}`, { headers: as('203.0.113.8') });
    expect(huge.status).toBe(431);
    const badEscape = await request(`${server.base}/ch/events/%E0%A4%A`, { headers: as('203.0.113.8') });
    expect(badEscape.status).toBe(400);
    expect(badEscape.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(badEscape.body.code).toBe('bad-request');
  });

  it('closes a request whose headers trickle in too slowly with 408 problem+json', async () => {
    const { text, ms } = await rawExchange(port, [
      { data: 'GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\n' },
      { data: 'X-Slow: 1\r\n', afterMs: 600 },
      { data: 'X-Slow: 2\r\n', afterMs: 600 },
      { data: 'X-Slow: 3\r\n', afterMs: 600 },
      { data: 'X-Slow: 4\r\n', afterMs: 600 },
    ]);
    const problem = problemOf(text);
    expect(problem.status).toBe(408);
    expect(problem.headers).toMatch(/content-type: application\/problem\+json/i);
    expect(problem.body).toMatchObject({ status: 408, code: 'request-timeout' });
    expect(ms).toBeLessThan(5000);
  });

  it('closes a request whose body never completes with 408', async () => {
    const key = await server.createKey('Slow Host');
    const body = JSON.stringify(event('slow-1'));
    const { text } = await rawExchange(port, [
      {
        data: `POST /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`,
      },
    ]);
    expect(text).toMatch(/^HTTP\/1\.1 408/);
    const mine = await request(`${server.base}/api/events?mine=1`, { key, headers: as('203.0.113.9') });
    expect(mine.body.events).toEqual([]);
  });

  it('answers bytes that are not HTTP with 400 problem+json', async () => {
    const { text } = await rawExchange(port, [{ data: 'HELLO\u0001 WORLD\r\n\r\n' }]);
    const problem = problemOf(text);
    expect(problem.status).toBe(400);
    expect(problem.body.code).toBe('bad-request');
  });
});

describe('rate limits behind no trusted proxy', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('pglite', { env: { RATE_LIMIT_READS_PER_MINUTE: '3', TRUST_PROXY: 'false' } });
  });
  afterAll(() => server?.close());

  it('ignores X-Forwarded-For from an untrusted peer, so a client cannot dodge its limit', async () => {
    for (let i = 0; i < 3; i++) {
      const res = await request(`${server.base}/api/events`, { headers: { 'x-forwarded-for': `198.51.100.${i}` } });
      expect(res.status).toBe(200);
    }
    const res = await request(`${server.base}/api/events`, { headers: { 'x-forwarded-for': '198.51.100.99' } });
    expect(res.status).toBe(429);
  });
});

describe('limit settings', () => {
  it('have documented defaults and refuse nonsense', () => {
    const config = loadConfig({});
    expect(config.rateLimits).toEqual({
      writesPerMinute: 120,
      readsPerMinute: 600,
      batchItemsPerMinute: 5000,
      proposalsPerHour: 20,
      oauthClientsPerHour: 20,
      attendeesPerHour: 10,
    });
    expect(config.timeouts).toEqual({ requestMs: 30_000, keepAliveMs: 72_000, connectionMs: 120_000 });
    expect(config.trustProxy).toBe('loopback,linklocal,uniquelocal');
    expect(config.maxConnections).toBe(10_000);
    expect(config.databasePoolSize).toBe(10);
    expect(loadConfig({ RATE_LIMIT_READS_PER_MINUTE: '0' }).rateLimits.readsPerMinute).toBe(0);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    for (const [name, value] of [
      ['RATE_LIMIT_WRITES_PER_MINUTE', '-1'],
      ['RATE_LIMIT_READS_PER_MINUTE', 'lots'],
      ['RATE_LIMIT_PROPOSALS_PER_HOUR', '-3'],
      ['RATE_LIMIT_OAUTH_CLIENTS_PER_HOUR', 'many'],
      ['REQUEST_TIMEOUT_MS', '0'],
      ['KEEP_ALIVE_TIMEOUT_MS', '1.5'],
      ['MAX_CONNECTIONS', '0'],
      ['DATABASE_POOL_SIZE', 'ten'],
    ] as const) {
      expect(() => loadConfig({ [name]: value }), name).toThrow(ConfigError);
    }
  });
});
