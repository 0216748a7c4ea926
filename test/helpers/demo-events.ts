import type { CatalogueEvent, Lifecycle } from '../../src/catalogue/event.js';
import { generateDemoEvents } from '../../src/demo/generate.js';

/**
 * The synthetic catalogue as stored events (ids demo-0, demo-1, …, revision 1, owned by source `demo`), for tests
 * that fill a CatalogueIndex without a database.
 */
export function demoCatalogueEvents(
  count: number,
  now: Date,
  options: { seed?: number; lifecycle?: (i: number) => Lifecycle } = {},
): CatalogueEvent[] {
  return generateDemoEvents(count, now, options.seed === undefined ? {} : { seed: options.seed }).map((d, i) => ({
    ...d.content,
    id: `demo-${i}`,
    owner: 'source:demo',
    externalId: d.externalId,
    source: 'demo',
    lifecycle: options.lifecycle?.(i) ?? 'listed',
    revision: 1,
    createdAt: now,
    updatedAt: now,
  }));
}
