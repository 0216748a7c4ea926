import { describe, expect, it } from 'vitest';
import { search } from '../src/query/engine.js';
import { CatalogueIndex } from '../src/query/index/catalogue-index.js';
import { parseSearchParams } from '../src/query/params.js';
import { demoCatalogueEvents } from './helpers/demo-events.js';

/**
 * A country shard is a store and a query's scratch is the query's (index/shard-search.ts): searches taken at once are
 * apart, a released one serves the next query, and the shard's columns and lists are read-only outside it.
 */

const NOW = new Date('2026-01-05T09:00:00Z');

function indexOf(count: number): CatalogueIndex {
  const index = new CatalogueIndex(() => NOW);
  index.load(demoCatalogueEvents(count, NOW, { seed: 5 }));
  return index;
}

describe('ShardSearch', () => {
  it('gives each query in progress its own scratch, sized to the shard, and reuses one released', () => {
    const shard = indexOf(300).shard('de');
    const a = shard.search();
    const b = shard.search();
    expect(a).not.toBe(b);
    expect(a.score).not.toBe(b.score);
    expect(a.score.length).toBeGreaterThanOrEqual(shard.slots);
    a.score[0] = 7;
    expect(b.score[0]).toBe(0);
    shard.release(a);
    expect(() => shard.release(a)).toThrow(/released already/);
    expect(shard.search()).toBe(a);
  });

  it('answers alike whether searches are fresh or reused, and gives back every one it took', () => {
    const index = indexOf(600);
    const ask = () =>
      search(
        index,
        parseSearchParams({ q: 'AI meetup in Berlin next month', country: 'de', limit: '5' }),
        NOW,
      ).events.map((e) => [e.event.id, e.score]);
    const first = ask();
    const shard = index.shard('de');
    const held = shard.search();
    // The spare released by the first answer is held here: the next answer takes a fresh one, then gives it back.
    expect(ask()).toEqual(first);
    expect(shard.search()).not.toBe(held);
    shard.release(held);
  });

  it('shows its columns and lists as read-only views', () => {
    const shard = indexOf(50).shard('ch');
    // Checked by the compiler, never run.
    const writes = () => {
      // @ts-expect-error a column is written by the shard alone
      shard.startMs[0] = 0;
      // @ts-expect-error so is a posting list
      shard.byTopic.get('ai-ml')?.insert(0);
      // @ts-expect-error and the full text
      shard.text.add(0, shard.at(0).event);
    };
    expect(writes).toBeTypeOf('function');
  });
});
