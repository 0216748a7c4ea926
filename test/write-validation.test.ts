import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from './helpers/engines.js';
import { request } from './helpers/http.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { submission as event } from './helpers/submission.js';

/** Bad submissions get a clear error naming what is wrong, and lose nothing: the key's events are as before. */
describe.each(ENGINES)('write API validation on %s', (engine) => {
  let server: TestServer;
  let key: string;
  let api: string;

  beforeAll(async () => {
    server = await startTestServer(engine, { now: '2026-11-22T12:00:00Z' });
    key = await server.createKey('Zürich AI Society', 'ch');
    api = `${server.base}/api/events`;
  });
  afterAll(() => server?.close());

  const invalid: [string, Record<string, unknown>, string][] = [
    ['missing title', { title: undefined }, 'title'],
    ['empty title', { title: '   ' }, 'title'],
    ['startAt without offset', { startAt: '2026-12-03T18:30:00' }, 'startAt'],
    ['startAt date only', { startAt: '2026-12-03' }, 'startAt'],
    ['startAt impossible date', { startAt: '2026-02-30T10:00:00+01:00' }, 'startAt'],
    ['endAt before startAt', { endAt: '2026-12-03T17:00:00+01:00' }, 'endAt'],
    ['unknown format', { format: 'teleport' }, 'format'],
    ['unknown regMode', { regMode: 'lottery' }, 'regMode'],
    ['unknown visibility', { visibility: 'secret' }, 'visibility'],
    ['unknown topic', { topics: ['astrology'] }, 'topics[0]'],
    ['priceAmount without paid', { price: 'free', priceAmount: 10 }, 'priceAmount'],
    ['priceAmount with 3 decimals', { price: 'paid', priceAmount: 10.555 }, 'priceAmount'],
    ['negative priceAmount', { price: 'paid', priceAmount: -1 }, 'priceAmount'],
    ['fractional capacity', { capacity: 10.5 }, 'capacity'],
    ['zero capacity', { capacity: 0 }, 'capacity'],
    ['non-http url', { url: 'javascript:alert(1)' }, 'url'],
    ['ftp url', { url: 'ftp://example.org/x' }, 'url'],
    ['unknown field', { colour: 'blue' }, 'colour'],
    ['NUL in title', { title: 'a\u0000b' }, 'title'],
    ['unknown country', { country: 'fr' }, 'country'],
    ['lat without lng', { lat: 47.3 }, 'lng'],
  ];
  it.each(invalid)('rejects %s with 422 naming the field, and stores nothing', async (_name, change, field) => {
    const before = await request(`${api}?mine=1`, { key });
    const body = event({ externalId: `invalid-${field}`, ...change });
    const res = await request(api, { key, json: body });
    expect(res.status).toBe(422);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ status: 422, code: 'invalid-request', title: expect.any(String) });
    expect(res.body.type).toBe(`${server.base}/problems/invalid-request`);
    expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    const after = await request(`${api}?mine=1`, { key });
    expect(after.body.total).toBe(before.body.total);
  });

  it('lists every bad field at once', async () => {
    const res = await request(api, { key, json: { title: '', startAt: 'soon', format: 'x', extra: 1 } });
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: { field: string }) => e.field).sort()).toEqual([
      'extra',
      'format',
      'startAt',
      'title',
    ]);
  });

  it('accepts Z as the offset and keeps two decimals', async () => {
    const res = await request(api, {
      key,
      json: event({
        externalId: 'z',
        title: 'Zulu',
        startAt: '2026-12-05T09:00:00Z',
        endAt: undefined,
        price: 'paid',
        priceAmount: 19.99,
      }),
    });
    expect(res.status).toBe(201);
    const mine = await request(`${api}?mine=1`, { key });
    const stored = mine.body.events.find((e: { id: string }) => e.id === res.body.id);
    expect(stored.start).toBe('2026-12-05T09:00:00.000Z');
    expect(stored.price.amount).toBe(19.99);
  });

  it('answers malformed JSON with 400, a wrong content type with 415, a huge body with 413', async () => {
    const malformed = await request(api, {
      key,
      body: '{"title": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body.code).toBe('malformed-json');
    const form = await request(api, {
      key,
      body: 'title=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.status).toBe(415);
    expect(form.headers.get('content-type')).toMatch(/problem\+json/);
    const noType = await request(api, { key, method: 'POST' });
    expect(noType.status).toBe(415);
    const huge = await request(api, { key, json: event({ description: 'x'.repeat(70 * 1024) }) });
    expect(huge.status).toBe(413);
    expect(huge.body.code).toBe('payload-too-large');
  });

  it('answers a JSON body sent as text/plain with 415, and invalid UTF-8 with 400, storing nothing', async () => {
    const before = (await request(`${api}?mine=1`, { key })).body.total;
    const plain = await request(api, {
      key,
      body: JSON.stringify(event({ externalId: 'as-text' })),
      headers: { 'content-type': 'text/plain' },
    });
    expect(plain.status).toBe(415);
    expect(plain.body.code).toBe('unsupported-media-type');
    // "Zürich" with its ü as the Latin-1 byte 0xFC: not UTF-8, so not JSON; never stored as U+FFFD.
    const latin1 = Buffer.from(JSON.stringify(event({ externalId: 'latin-1' })), 'latin1');
    for (const [url, body] of [
      [api, latin1],
      [`${api}/batch`, Buffer.concat([Buffer.from('{"events":['), latin1, Buffer.from(']}')])],
    ] as const) {
      const res = await fetch(url, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body,
      });
      expect(res.status, url).toBe(400);
      const problem = await res.json();
      expect(problem).toMatchObject({ code: 'malformed-json', detail: expect.stringMatching(/UTF-8/) });
    }
    expect((await request(`${api}?mine=1`, { key })).body.total).toBe(before);
  });

  it('rejects a JSON array or scalar body with 422', async () => {
    for (const body of [[], 42, 'hello', null]) {
      const res = await request(api, { key, json: body });
      expect(res.status, JSON.stringify(body)).toBe(422);
    }
  });
});
