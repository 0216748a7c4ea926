import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { printReport } from './report.js';
import { strictArgs } from './usage.js';

export const SYNC_USAGE = `  sync [--feeds <file>]                     import every enabled feed of the feeds file (default
                                            $FEEDS_FILE, else the shipped feeds.json) as its source's
                                            complete state`;

/** `tech-events sync`: every enabled feed once, on the database or through the service that owns it. */
export async function syncCommand(args: string[]): Promise<void> {
  const { values } = strictArgs(() => parseArgs({ args, options: { feeds: { type: 'string' } } }));
  const [{ loadConfig }, { loadFeeds }, { syncAll }, { syncSummary }, { onDatabaseOrService }, { progressDisplay }] =
    await Promise.all([
      import('../config.js'),
      import('../importers/feeds.js'),
      import('../use-cases/sync-now.js'),
      import('../control/server.js'),
      import('./database-or-service.js'),
      import('./progress.js'),
    ]);
  // Absolute: a running service asked to sync reads it from its own working directory.
  const feedsFile = resolve(values.feeds ?? loadConfig().feedsFile.path);
  const feeds = await loadFeeds(feedsFile);
  if (!feeds.some((f) => f.enabled !== false)) console.log('No feeds.');
  const progress = progressDisplay();
  const results = await onDatabaseOrService({ command: 'sync', feedsFile }, async (ctx) =>
    (await syncAll(ctx, feeds, { onProgress: (feed, p) => progress.update(feed.source, p) })).map(syncSummary),
  );
  progress.stop();
  for (const { source, format, location, report, error, urls, missing, calendars } of results) {
    const label = `${source} (${format} ${location})`;
    const read = urls > 1 && !calendars ? `; read ${urls - missing} of ${urls} URLs (the others do not exist yet)` : '';
    if (report) printReport(label, report, missing > 0 ? read : '');
    else console.log(`${label}: FAILED: ${error}`);
    for (const c of calendars ?? [])
      console.log(`  calendar ${c.id}: ${c.outcome === 'gone' ? 'GONE' : 'FAILED'}: ${c.error} (its events stay)`);
  }
  if (results.some((r) => r.error)) process.exitCode = 1;
}
