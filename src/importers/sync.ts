import { readFile } from 'node:fs/promises';
import { dirname, isAbsolute, resolve } from 'node:path';
import { z } from 'zod';
import { COUNTRIES } from '../catalogue/countries.js';
import { HOST_SOURCE } from '../catalogue/event.js';
import type { AppContext } from '../context.js';
import { FORMATS, importerFor, isUrl, readInput } from './registry.js';
import { type ImportReport, runImport } from './run-import.js';

/** A source name: also the owner (`source:<name>`) and the public `source` field, so kept plain. */
export const SOURCE_NAME = /^[a-z0-9][a-z0-9._-]{0,62}$/;

export function sourceNameError(source: string): string | undefined {
  if (!SOURCE_NAME.test(source)) return 'must be 1-63 lower-case letters, digits, ".", "_" or "-"';
  if (source === HOST_SOURCE) return `"${HOST_SOURCE}" is reserved for events pushed by hosts`;
  return undefined;
}

const feedSchema = z.strictObject({
  source: z.string().superRefine((s, ctx) => {
    const error = sourceNameError(s);
    if (error) ctx.addIssue({ code: 'custom', message: error });
  }),
  format: z.string().refine((f) => importerFor(f) !== undefined, `must be one of ${FORMATS.join(', ')}`),
  url: z.string().min(1, 'must be a URL or a file path'),
  country: z.enum(COUNTRIES, { error: `must be one of ${COUNTRIES.join(', ')}` }).optional(),
});
const feedsSchema = z.array(feedSchema);

export type Feed = z.output<typeof feedSchema>;

export class FeedsFileError extends Error {}

/** Reads and validates a feeds file; relative file paths in it are relative to the file. */
export async function loadFeeds(path: string): Promise<Feed[]> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new FeedsFileError(
      code === 'ENOENT' ? `feeds file ${path} not found` : `feeds file ${path}: ${(error as Error).message}`,
    );
  }
  const parsed = feedsSchema.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.map(
      (i) => `${i.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('')}: ${i.message}`,
    );
    throw new FeedsFileError(`feeds file ${path} is invalid: ${issues.join('; ')}`);
  }
  const names = parsed.data.map((f) => f.source);
  const repeated = names.find((name, i) => names.indexOf(name) !== i);
  // Two feeds of one source would each cancel the other's events as missing.
  if (repeated) throw new FeedsFileError(`feeds file ${path}: source "${repeated}" appears twice`);
  const base = dirname(resolve(path));
  return parsed.data.map((f) => (isUrl(f.url) || isAbsolute(f.url) ? f : { ...f, url: resolve(base, f.url) }));
}

export interface SyncResult {
  feed: Feed;
  /** Present when the feed was read and imported (possibly with skipped records). */
  report?: ImportReport;
  /** Why the feed could not be read or stored at all; nothing of its source was changed. */
  error?: string;
}

/** Imports each feed as the complete state of its source (cancel-missing); one failing feed does not stop the rest. */
export async function runSync(ctx: AppContext, feeds: Feed[]): Promise<SyncResult[]> {
  const results: SyncResult[] = [];
  for (const feed of feeds) {
    try {
      const importer = importerFor(feed.format);
      if (!importer) throw new Error(`unknown format "${feed.format}"`);
      const input = await readInput(feed.url);
      const report = await runImport(ctx, importer, input, {
        source: feed.source,
        cancelMissing: true,
        defaultCountry: feed.country,
      });
      const { touched: _, skipped, ...counts } = report;
      ctx.logger.info({ ...counts, skipped: skipped.length }, `synced feed ${feed.source}`);
      for (const s of skipped) ctx.logger.warn({ source: feed.source, record: s.record }, `skipped: ${s.message}`);
      results.push({ feed, report });
    } catch (error) {
      ctx.logger.error(
        { source: feed.source, url: feed.url },
        `feed ${feed.source} failed: ${(error as Error).message}`,
      );
      results.push({ feed, error: (error as Error).message });
    }
  }
  return results;
}

/** `SYNC_INTERVAL_MINUTES` as a number of minutes, or undefined when unset; throws on nonsense. */
export function syncIntervalFromEnv(env: NodeJS.ProcessEnv = process.env): number | undefined {
  const raw = env.SYNC_INTERVAL_MINUTES;
  if (raw === undefined || raw === '' || raw === '0') return undefined;
  const minutes = Number(raw);
  if (!Number.isFinite(minutes) || minutes < 1) throw new Error(`SYNC_INTERVAL_MINUTES must be ≥ 1, got "${raw}"`);
  return minutes;
}

/**
 * Runs `runSync` now and then every `intervalMinutes` in this process; a run still going when the next is due is
 * not overlapped (the tick is skipped). The timer does not keep the process alive. `onRun` sees each run's
 * results. Returns a stop function.
 */
export function startSyncTimer(
  ctx: AppContext,
  feeds: Feed[],
  intervalMinutes: number,
  onRun?: (results: SyncResult[]) => void,
): () => void {
  let running = false;
  let stopped = false;
  const tick = () => {
    if (running || stopped) return;
    running = true;
    runSync(ctx, feeds)
      .then(onRun)
      .catch((error: unknown) => ctx.logger.error({ err: error }, 'sync failed'))
      .finally(() => {
        running = false;
      });
  };
  const first = setTimeout(tick, 0);
  const timer = setInterval(tick, intervalMinutes * 60_000);
  first.unref();
  timer.unref();
  return () => {
    stopped = true;
    clearTimeout(first);
    clearInterval(timer);
  };
}
