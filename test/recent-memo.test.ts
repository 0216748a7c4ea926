import { describe, expect, it } from 'vitest';
import { RecentMemo } from '../src/runtime/recent-memo.js';

describe('values kept for the objects asked about lately', () => {
  it('makes a value once per object while it is kept', () => {
    const memo = new RecentMemo<object, string>(10);
    const event = { id: 'a' };
    let made = 0;
    const make = () => `value ${++made}`;
    expect(memo.get(event, make)).toBe('value 1');
    expect(memo.get(event, make)).toBe('value 1');
    expect(memo.get({ id: 'a' }, make)).toBe('value 2');
    expect(made).toBe(2);
  });

  it('holds at most `max` objects, letting go of the one asked about longest ago', () => {
    const memo = new RecentMemo<object, number>(3);
    const [a, b, c, d] = [{}, {}, {}, {}];
    let made = 0;
    const make = () => ++made;
    memo.get(a, make);
    memo.get(b, make);
    memo.get(c, make);
    memo.get(a, make); // a is now the most recent; b the oldest
    memo.get(d, make);
    expect(memo.size).toBe(3);
    expect(made).toBe(4);
    expect(memo.get(a, make)).toBe(1);
    expect(memo.get(b, make)).toBe(5);
  });

  it('makes the value again when the kept one is no longer current', () => {
    const memo = new RecentMemo<object, { base: string }>(10);
    const event = {};
    const madeFor = (base: string) => () => ({ base });
    const isFor = (base: string) => (kept: { base: string }) => kept.base === base;
    expect(memo.get(event, madeFor('http://a'), isFor('http://a')).base).toBe('http://a');
    expect(memo.get(event, madeFor('http://b'), isFor('http://b')).base).toBe('http://b');
    expect(memo.get(event, madeFor('http://c')).base).toBe('http://b');
  });
});
