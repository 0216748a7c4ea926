import { describe, expect, it } from 'vitest';
import { SecondSight } from '../src/runtime/second-sight.js';

describe('admission on second sight', () => {
  it('admits a key the second time it is asked for, and every time after', () => {
    const sight = new SecondSight(100);
    expect(sight.admit('/api/events?q=rust')).toBe(false);
    expect(sight.admit('/api/events?q=rust')).toBe(true);
    expect(sight.admit('/api/events?q=rust')).toBe(true);
    expect(sight.admit('/api/events?q=Rust')).toBe(false);
  });

  it('remembers a key through at least `window` other keys, and forgets it after twice as many', () => {
    const sight = new SecondSight(50);
    sight.admit('popular');
    for (let i = 0; i < 50; i++) sight.admit(`one-off ${i}`);
    expect(sight.admit('popular')).toBe(true);
    const forgotten = new SecondSight(50);
    forgotten.admit('rare');
    for (let i = 0; i < 100; i++) forgotten.admit(`one-off ${i}`);
    expect(forgotten.admit('rare')).toBe(false);
  });
});
