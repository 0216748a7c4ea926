import { describe, expect, it } from 'vitest';
import { createResponseCache } from '../src/http/response-cache.js';

describe('response cache', () => {
  it('evicts the least recently used entry beyond its count or byte budget, and skips oversized bodies', () => {
    const cache = createResponseCache(2, 1600);
    cache.set('a', { body: 'x'.repeat(10), headers: {} });
    cache.set('b', { body: 'y'.repeat(10), headers: {} });
    cache.get('a');
    cache.set('c', { body: 'z'.repeat(10), headers: {} });
    expect([...cache.keys()].sort()).toEqual(['a', 'c']);
    cache.set('huge', { body: 'h'.repeat(200), headers: {} }); // over 1/16 of the budget
    expect(cache.has('huge')).toBe(false);
  });
});
