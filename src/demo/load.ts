import type { AppContext } from '../context.js';
import { DEMO_SOURCE, generateDemoEvents } from './generate.js';

/**
 * Writes a synthetic catalogue in bulk (multi-row inserts, with a `create` revision per event, as every write has).
 * Ids are `demo-<n>`; nothing here ever mixes into the default start.
 */
export async function loadDemoCatalogue(
  ctx: AppContext,
  count: number,
  options: { seed?: number; batch?: number } = {},
): Promise<number> {
  const events = generateDemoEvents(count, ctx.now(), { seed: options.seed });
  const batch = options.batch ?? 1000;
  for (let i = 0; i < events.length; i += batch) {
    await ctx.events.insertManyDemo(
      events.slice(i, i + batch).map((e, j) => ({ id: `demo-${i + j}`, externalId: e.externalId, content: e.content })),
      `source:${DEMO_SOURCE}`,
      DEMO_SOURCE,
    );
  }
  return events.length;
}
