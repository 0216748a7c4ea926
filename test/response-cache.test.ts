import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { createResponseCache, encodedBody } from '../src/http/response-cache.js';

/** What a body was made from; the LRU itself never looks at it. */
const READ = { dependencies: { parts: ['ch'] }, stamp: '0|ch0' };

describe('response cache', () => {
  it('evicts the least recently used entry beyond its count or byte budget, and skips oversized bodies', () => {
    const cache = createResponseCache(2, 1600);
    cache.set('a', { body: Buffer.from('x'.repeat(10)), headers: {}, encoded: {}, read: READ });
    cache.set('b', { body: Buffer.from('y'.repeat(10)), headers: {}, encoded: {}, read: READ });
    cache.get('a');
    cache.set('c', { body: Buffer.from('z'.repeat(10)), headers: {}, encoded: {}, read: READ });
    expect([...cache.keys()].sort()).toEqual(['a', 'c']);
    cache.set('huge', { body: Buffer.from('h'.repeat(200)), headers: {}, encoded: {}, read: READ }); // over 1/16 of the budget
    expect(cache.has('huge')).toBe(false);
  });

  it('compresses a cached body once per coding the client accepts, and small bodies not at all', () => {
    const entry = {
      body: Buffer.from(JSON.stringify({ events: Array.from({ length: 50 }, (_, i) => ({ i, t: 'Zürich' })) })),
      headers: {},
      encoded: {},
      read: READ,
    };
    const br = encodedBody(entry, 'gzip, deflate, br')!;
    expect(br.coding).toBe('br');
    expect(brotliDecompressSync(br.body).toString()).toBe(entry.body.toString());
    expect(encodedBody(entry, 'br')!.body).toBe(br.body); // the same buffer: compressed once
    const gz = encodedBody(entry, 'br;q=0, gzip;q=0.5')!;
    expect(gz.coding).toBe('gzip');
    expect(gunzipSync(gz.body).toString()).toBe(entry.body.toString());
    expect(encodedBody(entry, 'identity')).toBeUndefined();
    expect(encodedBody(entry, undefined)).toBeUndefined();
    expect(encodedBody({ body: Buffer.from('small'), headers: {}, encoded: {}, read: READ }, 'br')).toBeUndefined();
  });
});
