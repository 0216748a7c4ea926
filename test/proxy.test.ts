import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningProxy, startProxy } from '../scripts/soak-proxy.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const HAPROXY = '/usr/sbin/haproxy';

/**
 * The shipped HAProxy configuration (deploy/haproxy/haproxy.cfg) in front of a real node: what passes, whom the node
 * counts, and what a client reads when no node can answer. `SOAK_PROXY=haproxy npm run soak` runs a crowd through it.
 */
describe.skipIf(!existsSync(HAPROXY) && !process.env.CI)('the shipped HAProxy configuration', () => {
  let server: TestServer;
  let proxy: RunningProxy;
  beforeAll(async () => {
    server = await startTestServer('pglite', {
      now: '2025-03-01T09:00:00Z',
      env: { SEED: '1', RATE_LIMIT_READS_PER_MINUTE: '3' },
    });
    proxy = await startProxy([server.base], { haproxy: HAPROXY });
  });
  afterAll(async () => {
    await proxy?.stop();
    await server?.close();
  });

  it('passes reads and their answers through unchanged', async () => {
    const direct = await fetch(`${server.base}/api/events?country=ch&q=devops`, {
      headers: { 'x-forwarded-for': '203.0.113.1' },
    });
    const proxied = await fetch(`${proxy.base}/api/events?country=ch&q=devops`, {
      headers: { 'x-forwarded-for': '203.0.113.2' },
    });
    expect(proxied.status).toBe(200);
    expect(proxied.headers.get('etag')).toBe(direct.headers.get('etag'));
    expect(await proxied.json()).toEqual(await direct.json());
  });

  it('names each client to the node, so that limits count clients, not the proxy', async () => {
    const ask = (ip: string) =>
      fetch(`${proxy.base}/api/events?country=at`, { headers: { 'x-forwarded-for': ip } }).then((res) => res.status);
    const first = [await ask('198.51.100.7'), await ask('198.51.100.7'), await ask('198.51.100.7')];
    expect(first).toEqual([200, 200, 200]);
    expect(await ask('198.51.100.7')).toBe(429);
    expect(await ask('198.51.100.8')).toBe(200);
  });

  it('answers a problem with Retry-After, CORS-open, when no node can take the request', async () => {
    // Nothing listens on the discard port: every connection to the node is refused.
    const alone = await startProxy(['http://127.0.0.1:9'], { haproxy: HAPROXY, throughNode: false });
    try {
      const res = await fetch(`${alone.base}/api/events?country=ch`);
      expect(res.status).toBe(503);
      expect(res.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      const body = (await res.json()) as { detail?: unknown };
      expect(body).toMatchObject({ status: 503, code: 'overloaded', retryAfter: 2 });
      expect(typeof body.detail).toBe('string');
    } finally {
      await alone.stop();
    }
  });
});
