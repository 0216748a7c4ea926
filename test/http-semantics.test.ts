import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEscapingServer } from './helpers/escaping-server.js';
import { raw } from './helpers/http.js';
import type { TestServer } from './helpers/server.js';

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A GET (or other method) through node:http, so the bytes and headers are as sent: nothing decoded or added. */
function get(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('HTTP semantics (RFC 9110)', () => {
  let server: TestServer;
  beforeAll(async () => {
    ({ server } = await startEscapingServer());
  });
  afterAll(() => server?.close());

  // Over 1 KiB, so that it is compressed for a client that accepts it.
  const listing = () => `${server.base}/api/events?country=ch&limit=50`;

  describe('conditional requests', () => {
    it('answers If-None-Match with a list, weak tags and * by weak comparison', async () => {
      const plain = await get(listing());
      expect(plain.status).toBe(200);
      const etag = plain.headers.etag as string;
      expect(etag).toMatch(/^"[^"]+"$/);
      for (const value of [etag, `"nope", ${etag}`, `${etag}, "nope"`, `W/${etag}`, `"a", W/${etag}, "b"`, '*']) {
        const res = await get(listing(), { 'if-none-match': value });
        expect(res.status, value).toBe(304);
        expect(res.body.length, value).toBe(0);
        expect(res.headers.etag, value).toBe(etag);
        expect(res.headers['cache-control'], value).toMatch(/public/);
        expect(res.headers.vary, value).toMatch(/accept-encoding/i);
      }
      for (const value of ['"nope"', '"nope", W/"other"', `${etag.slice(0, -2)}"`]) {
        expect((await get(listing(), { 'if-none-match': value })).status, value).toBe(200);
      }
    });

    it('answers If-Modified-Since to the second when If-None-Match is absent, and ignores it beside one', async () => {
      const path = `${server.base}/api/calendar?country=ch`;
      const first = await get(path);
      const lastModified = first.headers['last-modified'] as string;
      expect(lastModified).toMatch(/GMT$/);
      const at = Date.parse(lastModified);
      const http = (ms: number) => new Date(ms).toUTCString();
      expect((await get(path, { 'if-modified-since': lastModified })).status).toBe(304);
      expect((await get(path, { 'if-modified-since': http(at + 60_000) })).status).toBe(304);
      expect((await get(path, { 'if-modified-since': http(at - 1000) })).status).toBe(200);
      // The obsolete forms are HTTP-dates too; a value that is not one is ignored.
      const asctime = new Date(at).toUTCString().replace(/^(\w+), (\d+) (\w+) (\d+) (\S+) GMT$/, '$1 $3 $2 $5 $4');
      expect((await get(path, { 'if-modified-since': asctime })).status).toBe(304);
      expect((await get(path, { 'if-modified-since': 'yesterday' })).status).toBe(200);
      // If-None-Match decides alone when both are sent.
      expect((await get(path, { 'if-modified-since': lastModified, 'if-none-match': '"nope"' })).status).toBe(200);
      // HEAD like GET.
      expect((await get(path, { 'if-modified-since': lastModified }, 'HEAD')).status).toBe(304);
    });

    it('gives each coding its own strong ETag, the same for a fresh body and a kept one, and revalidates each', async () => {
      const identity = await get(listing(), { 'accept-encoding': 'identity' });
      const tag = identity.headers.etag as string;
      const answers = new Map<string, RawAnswer[]>();
      for (const coding of ['br', 'gzip', 'identity']) {
        const rounds: RawAnswer[] = [];
        // Three rounds: the first may make the body, the later ones come from the response cache.
        for (let round = 0; round < 3; round++) rounds.push(await get(listing(), { 'accept-encoding': coding }));
        answers.set(coding, rounds);
        for (const res of rounds) {
          expect(res.headers['content-encoding'], coding).toBe(coding === 'identity' ? undefined : coding);
          expect(res.headers.etag, coding).toBe(coding === 'identity' ? tag : `${tag.slice(0, -1)}-${coding}"`);
          expect(res.headers.vary, coding).toMatch(/accept-encoding/i);
          // A strong tag names the same bytes each time.
          expect(res.body.equals(rounds[0]!.body), coding).toBe(true);
        }
        const again = await get(listing(), {
          'accept-encoding': coding,
          'if-none-match': rounds[0]!.headers.etag as string,
        });
        expect(again.status, coding).toBe(304);
        expect(again.headers.etag, coding).toBe(rounds[0]!.headers.etag);
        expect(again.headers['content-encoding'], coding).toBeUndefined();
      }
      // Another coding's tag names other bytes: no 304 for it.
      const gzipTag = answers.get('gzip')![0]!.headers.etag as string;
      const other = await get(listing(), { 'accept-encoding': 'br', 'if-none-match': gzipTag });
      expect(other.status).toBe(200);
      expect(other.headers['content-encoding']).toBe('br');
    });

    it('says Vary: Accept-Encoding on uncompressed answers too, beside a route’s own Vary', async () => {
      for (let round = 0; round < 2; round++) {
        const plain = await get(listing());
        expect(plain.headers['content-encoding']).toBeUndefined();
        expect(plain.headers.vary).toMatch(/accept-encoding/i);
        const page = await get(`${server.base}/ch`, { 'accept-encoding': 'gzip', 'accept-language': 'de' });
        expect(page.status).toBe(200);
        expect(page.headers.vary).toMatch(/accept-language/i);
        expect(page.headers.vary).toMatch(/accept-encoding/i);
        const plainPage = await get(`${server.base}/ch`, { 'accept-language': 'de' });
        expect(plainPage.headers.vary).toMatch(/accept-language/i);
        expect(plainPage.headers.vary).toMatch(/accept-encoding/i);
      }
    });
  });

  describe('errors', () => {
    const problemOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));

    it('answers problem+json for every unknown path, an HTML page only to a client asking for HTML', async () => {
      for (const path of ['/%0d', '/%0a', '/ch%0d', '/de/events/%0d', '/nowhere', '/ch/events/no-such-event']) {
        for (const accept of [undefined, '*/*', 'application/json', 'application/problem+json']) {
          const res = await get(`${server.base}${path}`, accept ? { accept } : {});
          expect(res.status, `${path} ${accept}`).toBe(404);
          expect(res.headers['content-type'], `${path} ${accept}`).toBe('application/problem+json; charset=utf-8');
          expect(JSON.parse(res.body.toString()).code, path).toMatch(/^(event-)?not-found$/);
        }
        // A browser's Accept: the page's own 404.
        const browser = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
        const page = await get(`${server.base}${path}`, { accept: browser });
        expect(page.status, path).toBe(404);
        expect(page.headers['content-type'], path).toMatch(/^text\/html/);
      }
    });

    it('answers 405 with Allow for a method a path does not take, 404 where no method is taken', async () => {
      for (const [method, path, allow] of [
        ['TRACE', '/api/events', 'GET, HEAD, POST, DELETE, OPTIONS'],
        ['PUT', '/api/events', 'GET, HEAD, POST, DELETE, OPTIONS'],
        ['PATCH', '/ch.md', 'GET, HEAD, OPTIONS'],
        ['DELETE', '/api/feed', 'GET, HEAD, OPTIONS'],
        ['DELETE', '/api/events/batch', 'GET, HEAD, POST, OPTIONS'],
        ['PUT', '/api/calendars/some-id', 'DELETE, OPTIONS'],
      ] as const) {
        const res = await get(`${server.base}${path}`, {}, method);
        expect(res.status, `${method} ${path}`).toBe(405);
        expect(res.headers.allow, `${method} ${path}`).toBe(allow);
        expect(res.headers['content-type']).toBe('application/problem+json; charset=utf-8');
        expect(JSON.parse(res.body.toString())).toMatchObject({ status: 405, code: 'method-not-allowed' });
      }
      // An OPTIONS that is no CORS preflight is told the same; a preflight gets the CORS answer.
      const options = await get(`${server.base}/ch.md`, {}, 'OPTIONS');
      expect(options.status).toBe(204);
      expect(options.headers.allow).toBe('GET, HEAD, OPTIONS');
      const preflight = await get(
        `${server.base}/api/events`,
        { origin: 'https://example.org', 'access-control-request-method': 'POST' },
        'OPTIONS',
      );
      expect(preflight.status).toBe(204);
      expect(preflight.headers['access-control-allow-methods']).toMatch(/POST/);
      const nowhere = await get(`${server.base}/api/nothing/here`, {}, 'OPTIONS');
      expect(nowhere.status).toBe(404);
      expect(nowhere.headers['content-type']).toBe('application/problem+json; charset=utf-8');
      const nothing = await get(`${server.base}/api/nothing/here`, {}, 'PUT');
      expect(nothing.status).toBe(404);
      expect(nothing.headers.allow).toBeUndefined();
    });

    it('answers an upload over the limit with a 413 its client reads, however it sends the body', async () => {
      const port = Number(new URL(server.base).port);
      for (const [path, size] of [
        ['/api/events', 5 * 1024 * 1024],
        ['/api/events/batch', 6 * 1024 * 1024],
      ] as const) {
        // No Expect: the body follows the headers at once, and the rest after the server has answered.
        const answer = await new Promise<{ text: string; error?: string }>((resolve) => {
          const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
          let text = '';
          let error: string | undefined;
          socket.setEncoding('latin1');
          socket.on('data', (chunk: string) => {
            text += chunk;
          });
          socket.on('error', (e: NodeJS.ErrnoException) => {
            error = e.code;
          });
          socket.on('close', () => resolve({ text, error }));
          socket.write(
            `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: ${size}\r\n\r\n`,
          );
          socket.write(Buffer.alloc(1024 * 1024, 'x'));
          setTimeout(() => {
            socket.end(Buffer.alloc(size - 1024 * 1024, 'x'));
          }, 500);
          setTimeout(() => socket.destroy(), 10_000).unref();
        });
        expect(answer.error, path).toBeUndefined();
        expect(answer.text, path).toMatch(/^HTTP\/1\.1 413 /);
        expect(answer.text, path).toMatch(/\r\nconnection: close\r\n/i);
        expect(problemOf(answer.text)).toMatchObject({ status: 413, code: 'payload-too-large' });
      }
    });

    it('answers CONNECT, which no route takes, with a 405 problem rather than a dropped connection', async () => {
      const port = Number(new URL(server.base).port);
      const answer = await raw(port, `CONNECT example.org:443 HTTP/1.1\r\nHost: example.org:443\r\n\r\n`);
      expect(answer).toMatch(/^HTTP\/1\.1 405 /);
      expect(answer).toMatch(/\r\nAllow: GET, HEAD, POST, PUT, DELETE, OPTIONS\r\n/);
      expect(problemOf(answer)).toMatchObject({ status: 405, code: 'method-not-allowed' });
    });

    it('refuses a request with two Host headers (400 problem+json), closing the connection', async () => {
      const port = Number(new URL(server.base).port);
      for (const hosts of [
        `Host: 127.0.0.1:${port}\r\nHost: evil.example\r\n`,
        `Host: 127.0.0.1:${port}\r\nhost: 127.0.0.1:${port}\r\n`,
      ]) {
        const answer = await raw(port, `GET /api/events HTTP/1.1\r\n${hosts}\r\n`);
        expect(answer).toMatch(/^HTTP\/1\.1 400 /);
        expect(answer).toMatch(/\r\ncontent-type: application\/problem\+json; charset=utf-8\r\n/i);
        expect(answer).toMatch(/\r\nconnection: close\r\n/i);
        expect(problemOf(answer)).toMatchObject({ status: 400, code: 'bad-request' });
      }
      const one = await raw(port, `GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`);
      expect(one).toMatch(/^HTTP\/1\.1 200 /);
    });
  });
});
