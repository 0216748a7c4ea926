import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { forEachSlot, Lanes, tallyLanes } from '../src/query/index/slot-bits.js';
import { Postings } from '../src/query/index/slot-list.js';

const slotsOf = (bits: Uint32Array) => {
  const out: number[] = [];
  forEachSlot(bits, (slot) => out.push(slot));
  return out;
};

describe('slots as bits', () => {
  it('a posting list with bits holds the same slots as its list, through adds and removes', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.boolean(), fc.constantFrom('a', 'b', 'c'), fc.nat({ max: 300 })), { maxLength: 400 }),
        (changes) => {
          const postings = new Postings<string>(true);
          for (const [add, key, slot] of changes) postings[add ? 'add' : 'remove'](key, slot);
          for (const key of ['a', 'b', 'c']) {
            const list = postings.get(key)?.toArray() ?? [];
            const bits = postings.bits(key);
            expect(bits ? slotsOf(bits.words) : [], key).toEqual(list);
            for (let slot = 0; slot <= 300; slot++) expect(bits?.has(slot) ?? false).toBe(list.includes(slot));
          }
        },
      ),
    );
  });

  it('tallied a word at a time: the slots in every set, and those in all but one, the sets left as they were', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 200 }),
        fc.array(fc.array(fc.nat({ max: 199 }), { maxLength: 120 }), { minLength: 2, maxLength: 8 }),
        (slots, sets) => {
          const lanes = new Lanes().take(sets.length + 2, slots);
          const [inAll, allButOne] = lanes.splice(sets.length, 2) as [Uint32Array, Uint32Array];
          sets.forEach((set, i) => {
            for (const slot of set) if (slot < slots) lanes[i]![slot >>> 5]! |= 1 << (slot & 31);
          });
          const before = lanes.map((lane) => [...lane]);
          const count = (slot: number) => sets.filter((set) => set.includes(slot)).length;
          const expected = (n: number) => Array.from({ length: slots }, (_, s) => s).filter((s) => count(s) === n);
          tallyLanes(lanes, inAll, allButOne);
          expect(slotsOf(inAll)).toEqual(expected(sets.length));
          expect(slotsOf(allButOne)).toEqual(expected(sets.length - 1));
          // Each set is read again afterwards (the near misses missing one constraint): it is left as it was.
          expect(lanes.map((lane) => [...lane])).toEqual(before);
        },
      ),
    );
  });

  it('scratch lanes come back cleared, however they were left', () => {
    const lanes = new Lanes();
    for (const lane of lanes.take(3, 100)) lane.fill(0xffffffff);
    for (const lane of lanes.take(2, 64)) expect([...lane]).toEqual([0, 0]);
  });
});
