import type { CatalogueEvent } from '../src/catalogue/event.js';
import { generateDemoEvents } from '../src/demo/generate.js';

/** `size` synthetic events as the read index holds them, listed and stored at `now`: for in-process measurements. */
export function demoCatalogue(size: number, now: Date): CatalogueEvent[] {
  return generateDemoEvents(size, now).map(
    (d, i): CatalogueEvent => ({
      ...d.content,
      id: `demo-${i}`,
      owner: 'source:demo',
      externalId: d.externalId,
      source: 'demo',
      lifecycle: 'listed',
      revision: 1,
      createdAt: now,
      updatedAt: now,
    }),
  );
}
