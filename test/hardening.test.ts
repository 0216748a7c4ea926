import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, parseBaseUrl } from '../src/config.js';
import { raw, request } from './helpers/http.js';
import { freePort, startTestServer, type TestServer } from './helpers/server.js';

const event = (externalId: string, day = 3) => ({
  externalId,
  title: `Hardening Meetup ${externalId}`,
  startAt: `2026-12-${String(day).padStart(2, '0')}T18:30:00+01:00`,
  city: 'Köln',
});

describe('BASE_URL', () => {
  it('is normalised, or refused at start-up when it would reach links and headers raw', () => {
    expect(parseBaseUrl('https://Events.Example.org/\r')).toBe('https://events.example.org');
    expect(parseBaseUrl(' http://localhost:3000/catalogue/ ')).toBe('http://localhost:3000/catalogue');
    for (const bad of [
      'https://events.example.org/a\tb',
      'https://events.example.org/\r\nX-Injected: 1',
      '"https://events.example.org"',
      'javascript://events.example.org',
      'ftp://events.example.org',
      'https://user:secret@events.example.org',
      'https://events.example.org/?a=1',
      'events.example.org',
    ]) {
      expect(() => loadConfig({ BASE_URL: bad }), JSON.stringify(bad)).toThrow(ConfigError);
    }
  });

  it('ending in a carriage return, serves writes and pages whose links and headers are clean', async () => {
    const port = await freePort();
    const server = await startTestServer('pglite', {
      now: '2026-11-26T10:00:00Z',
      env: { PORT: String(port), BASE_URL: `http://LOCALHOST:${port}/\r` },
    });
    try {
      expect(server.base).toBe(`http://localhost:${port}`);
      const key = await server.createKey('Carriage Host', 'de');
      for (const [i, id] of ['cr-1', 'cr-2', 'cr-3'].entries()) {
        const res = await request(`${server.base}/api/events`, { key, json: event(id, 3 + i) });
        expect(res.status).toBe(201);
        expect(res.headers.get('location')).toMatch(new RegExp(`^http://localhost:${port}/de/events/`));
      }
      const page = await request(`${server.base}/api/events?country=de&limit=1`);
      expect(page.status).toBe(200);
      expect(page.headers.get('link')).toMatch(new RegExp(`^<http://localhost:${port}/api/events\\?`));
    } finally {
      await server.close();
    }
  });
});

describe('bodies and hosts the service does not take', () => {
  let server: TestServer;
  let port: number;
  let key: string;
  beforeAll(async () => {
    server = await startTestServer('pglite', { now: '2026-11-26T10:00:00Z' });
    port = Number(new URL(server.base).port);
    key = await server.createKey('Careful Host', 'de');
  });
  afterAll(() => server?.close());

  it('answers a JSON body in a charset other than UTF-8 with 415, storing nothing', async () => {
    for (const charset of ['latin1', 'utf-16', 'ISO-8859-1']) {
      const res = await request(`${server.base}/api/events`, {
        key,
        body: JSON.stringify(event(`charset-${charset}`)),
        headers: { 'content-type': `application/json; charset=${charset}` },
      });
      expect(res.status, charset).toBe(415);
      expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
      expect(res.body.detail).toMatch(/UTF-8/);
    }
    for (const [i, charset] of ['utf-8', 'UTF8', '"utf-8"'].entries()) {
      const res = await request(`${server.base}/api/events`, {
        key,
        body: JSON.stringify(event(`charset-ok-${i}`)),
        headers: { 'content-type': `application/json; charset=${charset}` },
      });
      expect(res.status, charset).toBe(201);
    }
    const mine = await request(`${server.base}/api/events?mine=1`, { key });
    expect(mine.body.events.map((e: { externalId: string }) => e.externalId).sort()).toEqual([
      'charset-ok-0',
      'charset-ok-1',
      'charset-ok-2',
    ]);
  });

  it('answers an oversized body with a 413 its client can read, and honours Expect: 100-continue', async () => {
    const big = Buffer.alloc(5 * 1024 * 1024, 'x');
    // A client that sends the whole body reads the 413 (no reset while it is still sending).
    const sent = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(
        `${server.base}/api/events`,
        {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'content-length': big.length },
        },
        (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            body += chunk;
          });
          res.on('end', () => resolve({ status: res.statusCode!, body }));
        },
      );
      req.on('error', reject);
      req.end(big);
    });
    expect(sent.status).toBe(413);
    expect(JSON.parse(sent.body)).toMatchObject({ code: 'payload-too-large', status: 413 });
    for (let i = 0; i < 5; i++) {
      const fetched = await request(`${server.base}/api/events`, {
        key,
        body: big.toString(),
        headers: { 'content-type': 'application/json' },
      });
      expect(fetched.status).toBe(413);
      expect(fetched.body.code).toBe('payload-too-large');
    }

    // A client that asks first is told 413 before it sends a byte of the body.
    const asked = await raw(
      port,
      `POST /api/events HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: ${big.length}\r\nExpect: 100-continue\r\n\r\n`,
    );
    expect(asked).toMatch(/^HTTP\/1\.1 413 /);
    expect(asked).not.toMatch(/100 Continue/);
    expect(asked).toMatch(/"code":"payload-too-large"/);

    // One within the limit is told to go on, and is taken.
    const body = Buffer.from(JSON.stringify(event('continued')));
    const socket = connect(port, '127.0.0.1');
    const answer = await new Promise<string>((resolve) => {
      let text = '';
      socket.setEncoding('latin1');
      socket.on('data', (chunk: string) => {
        text += chunk;
        if (/^HTTP\/1\.1 100 Continue\r\n\r\n$/.test(text)) socket.write(body);
        if (/\r\n\r\n\{.*\}$/s.test(text.replace(/^HTTP\/1\.1 100 Continue\r\n\r\n/, ''))) resolve(text);
      });
      socket.write(
        `POST /api/events HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nExpect: 100-continue\r\n\r\n`,
      );
    });
    socket.destroy();
    expect(answer).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 201 /);

    // The batch route takes larger bodies (its own bodyLimit): a body over the default is told to go on there.
    const batch = connect(port, '127.0.0.1');
    const told = await new Promise<string>((resolve) => {
      batch.setEncoding('latin1');
      batch.once('data', (chunk: string) => resolve(chunk));
      batch.write(
        `POST /api/events/batch HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: ${big.length}\r\nExpect: 100-continue\r\n\r\n`,
      );
    });
    batch.destroy();
    expect(told).toMatch(/^HTTP\/1\.1 100 Continue\r\n/);
  });

  it('refuses MCP requests naming a foreign Host or Origin with a JSON-RPC error, serves its own', async () => {
    const call = (headers: Record<string, string>) =>
      raw(
        port,
        `POST /api/mcp HTTP/1.1\r\n${Object.entries(headers)
          .map(([k, v]) => `${k}: ${v}\r\n`)
          .join(
            '',
          )}Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 58\r\nConnection: close\r\n\r\n{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}`,
      );
    const foreignHost = await call({ Host: 'evil.example' });
    expect(foreignHost).toMatch(/^HTTP\/1\.1 403 /);
    expect(foreignHost).toMatch(/"jsonrpc":"2.0".*"code":-32000.*"message":"Forbidden: this Host is not served here/s);
    const foreignOrigin = await call({ Host: `127.0.0.1:${port}`, Origin: 'https://evil.example' });
    expect(foreignOrigin).toMatch(/^HTTP\/1\.1 403 .*Forbidden: cross-origin requests/s);
    const own = await call({ Host: `localhost:${port}` });
    expect(own).toMatch(/^HTTP\/1\.1 200 .*"tools":\[/s);
  });
});
