import { describe, expect, it } from 'vitest';
import { AnswerWatches } from '../src/query/index/answer-watch.js';

describe('answer watches', () => {
  it('move a watched answer on with the changes that do not affect it, and end it at one that does', () => {
    const shard = { version: 0 };
    const watches = new AnswerWatches(() => shard.version);
    const evens = watches.watch((slot) => slot % 2 === 0);
    const all = watches.watch(() => true);
    // A change at slot 3: asked, then the version moves on.
    watches.check(3);
    watches.advance(shard.version++);
    expect(evens.holds()).toBe(true);
    expect(all.holds()).toBe(false);
    expect(watches.size).toBe(1);
    // A change nobody was asked about (the version moved without `advance`) ends every answer.
    shard.version++;
    expect(evens.holds()).toBe(false);
    watches.check(1);
    expect(watches.size).toBe(0);
  });

  it('keeps a bounded number, letting go of the least recently asked for', () => {
    const shard = { version: 0 };
    const watches = new AnswerWatches(() => shard.version, 2);
    const a = watches.watch(() => false);
    const b = watches.watch(() => false);
    expect(a.holds()).toBe(true); // a is asked for after b was made
    const c = watches.watch(() => false);
    expect(watches.size).toBe(2);
    expect([a.holds(), b.holds(), c.holds()]).toEqual([true, false, true]);
    watches.clear();
    expect([a.holds(), c.holds(), watches.size]).toEqual([false, false, 0]);
  });
});
