import type { AppContext } from '../context.js';
import type { SourcesRepository } from '../storage/sources.repository.js';

/** When the sources of each catalogue last refreshed, remembered for a minute: every page shows it. */
const remembered = new WeakMap<SourcesRepository, { at: number; value: Date | null }>();

/**
 * When the catalogue's sources were last refreshed (synced, or seeded from a snapshot), or null when never. While the
 * database is away, the last value known.
 */
export async function catalogueRefreshed(ctx: AppContext): Promise<Date | null> {
  const now = Date.now();
  const known = remembered.get(ctx.sources);
  if (known && now - known.at < 60_000) return known.value;
  try {
    const value = await ctx.sources.lastRefreshed();
    remembered.set(ctx.sources, { at: now, value });
    return value;
  } catch {
    return known?.value ?? null;
  }
}
