/**
 * In-process cost of distinct prompts against a read index built from the synthetic catalogue, without HTTP or
 * load generator: `npx tsx bench/prompt-cost.ts [sizes] [prompts]` (default 10000,100000 and 400). For each size it
 * times the bench's distinct prompts (PROMPTS, with format=in_person) and its many-constraint prompts, each prompt
 * new to the engine, at rest and with one write per prompt; it prints the median of five rounds in ms a prompt, and
 * young collections a 1,000 prompts over the five: the garbage a prompt leaves (a collection comes each time the young
 * generation fills), which a service under load pays in collections and in what they promote.
 */
import { GCProfiler } from 'node:v8';
import { search } from '../src/query/engine.js';
import { CatalogueIndex } from '../src/query/index/catalogue-index.js';
import { parseSearchParams } from '../src/query/params.js';
import { demoCatalogue } from './demo-events.js';
import { MANY_CONSTRAINT_PROMPTS, PROMPTS } from './measure.js';
import { median } from './percentile.js';

const sizes = (process.argv[2] ?? '10000,100000').split(',').map(Number);
const count = Number(process.argv[3] ?? 400);
const now = new Date('2026-01-05T09:00:00Z');

for (const size of sizes) {
  const events = demoCatalogue(size, now);
  const index = new CatalogueIndex(() => now);
  index.load(events);
  const cases: [string, string[], Record<string, string>][] = [
    ['bench distinct prompts (format=in_person)', PROMPTS, { format: 'in_person' }],
    ['many-constraint prompts', MANY_CONSTRAINT_PROMPTS, {}],
  ];
  let next = 0;
  let written = 0;
  for (const [name, prompts, extra] of cases) {
    for (const writes of [false, true]) {
      const rounds: number[] = [];
      const collections = new GCProfiler();
      collections.start();
      for (let round = 0; round < 5; round++) {
        const started = performance.now();
        for (let i = 0; i < count; i++) {
          if (writes) {
            const e = events[written++ % events.length]!;
            index.apply({ ...e, revision: e.revision + written, title: `${e.title} ${written % 7}` });
          }
          const q = decodeURIComponent(prompts[next++ % prompts.length]!);
          search(index, parseSearchParams({ q, country: 'de', limit: '20', ...extra }), now);
        }
        rounds.push((performance.now() - started) / count);
      }
      const young = collections.stop().statistics.filter((gc) => gc.gcType === 'Scavenge').length;
      console.log(
        `${size}\t${name}${writes ? ', a write per prompt' : ''}\t${median(rounds).toFixed(2)} ms a prompt\t${((young * 1000) / (5 * count)).toFixed(0)} young collections a 1,000 prompts`,
      );
    }
  }
}
