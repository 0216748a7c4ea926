/**
 * The sync cases: calendars synced through POST /api/admin/sync while paced prompts arrive, and reads while a feed
 * syncs.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { type Measured, measure, measureAtRate } from './measure.js';
import { startCalendarHost } from './mixed.js';
import { ADMIN_TOKEN, feedsFileOf, NOW } from './service.js';

/** Calendars synced at once in the calendars case, and events in each. */
const SYNC_CALENDARS = 100;
const EVENTS_PER_CALENDAR = 5;
/** The paced read rate during the calendars sync: users arriving, not a saturating load. */
const CALENDAR_SYNC_READS_PER_SECOND = 20;

/** Seconds the sync of the 100 calendars took, by catalogue size: at 100k it should take at most twice its time at 10k. */
const calendarSeconds = new Map<number, number>();

/**
 * Paced distinct prompts while POST /api/admin/sync reads SYNC_CALENDARS Meetup-shaped calendars from a stand-in on
 * loopback and stores their events: how long a read waits at most while the sync runs, beside the same reads without
 * it.
 */
export async function calendarsSync(size: number, base: string, port: number, url: string): Promise<string[]> {
  const host = await startCalendarHost(SYNC_CALENDARS, EVENTS_PER_CALENDAR, new Date(NOW));
  // The feed synced later (at 100k) comes back afterwards: the calendars stand in for it only during this case.
  const feeds = readFileSync(feedsFileOf(port), 'utf8');
  writeFileSync(
    feedsFileOf(port),
    JSON.stringify([
      {
        source: 'bench-calendars',
        format: 'ical',
        country: 'de',
        url: host.template,
        each: { group: host.ids.map((id) => ({ id, city: 'Berlin' })) },
      },
    ]),
  );
  try {
    const quiet = await measureAtRate(url, CALENDAR_SYNC_READS_PER_SECOND, 5);
    const started = performance.now();
    const sync = syncToEnd(base).then((body) => (body as { feeds: { created?: number; error?: string }[] }).feeds[0]);
    const during = await measureAtRate(url, CALENDAR_SYNC_READS_PER_SECOND, 600, sync);
    const report = await sync;
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `\n${SYNC_CALENDARS} calendars of ${EVENTS_PER_CALENDAR} events synced in ${seconds.toFixed(1)} s during ${CALENDAR_SYNC_READS_PER_SECOND} distinct prompts/s: ${JSON.stringify(report)}`,
    );
    console.log(
      `  reads without the sync: p50 ${quiet.p50} ms, p99 ${quiet.p99} ms, max ${quiet.max} ms; during it: p50 ${during.p50} ms, p99 ${during.p99} ms, max ${during.max} ms, ${during.errors} errors`,
    );
    calendarSeconds.set(size, seconds);
    const ok = during.max < 100 && during.errors === 0 && report?.created === SYNC_CALENDARS * EVENTS_PER_CALENDAR;
    const lines = [
      `Target ${ok ? 'met' : 'NOT met'}: a sync of ${SYNC_CALENDARS} calendars keeps every read under 100 ms — max ${during.max} ms (${quiet.max} ms without it), ${report?.created ?? 0} events created`,
    ];
    const at10k = calendarSeconds.get(10_000);
    if (size === 100_000 && at10k) {
      const ratio = seconds / at10k;
      lines.push(
        `Target ${ratio <= 2 ? 'met' : 'NOT met'}: the sync of ${SYNC_CALENDARS} calendars takes at 100k at most 2× its time at 10k — ${ratio.toFixed(1)}× (${seconds.toFixed(1)} s, ${at10k.toFixed(1)} s)`,
      );
    }
    return lines;
  } finally {
    writeFileSync(feedsFileOf(port), feeds);
    await host.stop();
  }
}

/** Starts a sync (POST /api/admin/sync answers 202 and a run) and waits for the run's outcome. */
async function syncToEnd(base: string): Promise<unknown> {
  const headers = { authorization: `Bearer ${ADMIN_TOKEN}` };
  const started = await fetch(`${base}/api/admin/sync`, { method: 'POST', headers });
  const { id } = (await started.json()) as { id: string };
  for (;;) {
    const run = (await (await fetch(`${base}/api/admin/sync/${id}`, { headers })).json()) as { state: string };
    if (run.state !== 'running') return run;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Reads of `url` while POST /api/admin/sync runs: one load run from the request until the sync answers, so no read in
 * flight is dropped between measurements and the prompts run on.
 */
export async function readsDuringSync(
  base: string,
  url: string,
): Promise<Measured & { seconds: number; report: unknown }> {
  const started = performance.now();
  const sync = syncToEnd(base);
  const reads = await measure(url, { distinct: true, seconds: 600, until: sync });
  const report = await sync;
  return { ...reads, seconds: (performance.now() - started) / 1000, report };
}
