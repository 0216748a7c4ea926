import type { Country } from '../catalogue/countries.js';
import { sourceOwner } from '../catalogue/event.js';
import { setLifecycle } from '../catalogue/lifecycle.js';
import { upsertEvent } from '../catalogue/upsert-event.js';
import type { AppContext } from '../context.js';
import { enrichRecord } from './enrich.js';
import type { Importer, RecordError } from './importer.js';

export interface ImportOptions {
  /** The source's name: owner of its events (`source:<name>`) and their public `source` field. */
  source: string;
  /** Cancel this source's upcoming events that are absent from the input (a feed's complete state). */
  cancelMissing?: boolean;
  defaultCountry?: Country;
}

export interface ImportReport {
  source: string;
  format: string;
  created: number;
  updated: number;
  unchanged: number;
  cancelled: number;
  restored: number;
  skipped: RecordError[];
  /** Ids of every event the import wrote or touched, for the read index. */
  touched: string[];
}

/**
 * Parses with one importer, enriches, and stores each record through the same upsert as the write API,
 * owned by the source. A bad record is reported and skipped; the rest still load.
 */
export async function runImport(
  ctx: AppContext,
  importer: Importer,
  input: string,
  options: ImportOptions,
): Promise<ImportReport> {
  const owner = sourceOwner(options.source);
  const actor = `import:${options.source}`;
  const report: ImportReport = {
    source: options.source,
    format: importer.format,
    created: 0,
    updated: 0,
    unchanged: 0,
    cancelled: 0,
    restored: 0,
    skipped: [],
    touched: [],
  };
  const parsed = importer.parse(input, { now: ctx.now(), defaultCountry: options.defaultCountry });
  report.skipped.push(...parsed.errors);
  const seen = new Set<string>();
  for (const record of parsed.records) {
    // Present in the input, even if unusable now: not "missing", so cancel-missing leaves its stored event alone.
    seen.add(record.sourceId);
    try {
      const content = enrichRecord(record, options.defaultCountry);
      const result = await upsertEvent(
        ctx.events,
        { owner, externalId: record.sourceId, source: options.source, actor },
        content,
        record,
      );
      report[result.created ? 'created' : result.changed ? 'updated' : 'unchanged']++;
      report.touched.push(result.event.id);
      const wanted = record.cancelled ? 'cancelled' : 'listed';
      if (result.event.lifecycle !== wanted) {
        await setLifecycle(ctx.events, owner, actor, { externalId: record.sourceId }, wanted);
        report[wanted === 'cancelled' ? 'cancelled' : 'restored']++;
      }
    } catch (error) {
      report.skipped.push({ record: `"${record.title}" (${record.sourceId})`, message: (error as Error).message });
    }
  }
  // Input that yielded errors and not one usable record (an HTML error page, a broken file) is not an empty feed:
  // cancelling on it would wipe the source's listings.
  if (options.cancelMissing && !(report.touched.length === 0 && report.skipped.length > 0)) {
    const now = ctx.now();
    for (const event of await ctx.events.listByOwner(owner)) {
      const over = (event.end ?? event.start) < now;
      if (event.lifecycle === 'listed' && !over && event.externalId && !seen.has(event.externalId)) {
        await setLifecycle(ctx.events, owner, actor, { externalId: event.externalId }, 'cancelled');
        report.cancelled++;
        report.touched.push(event.id);
      }
    }
  }
  return report;
}
