import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { onDatabaseOrService } from './database-or-service.js';
import { strictArgs, UsageError } from './usage.js';

export const CALENDARS_USAGE = `  calendars link <url> --key <key id>       link an iCal feed to a host's key; its events are imported
                                            at once and synced with the feeds from then on
  calendars list [--key <key id>]           linked calendars and how their last sync went
  calendars unlink <calendar id>            unlink a calendar; its upcoming events are retired
  calendars check [--feeds <file>]          read every calendar of the feeds file once, as the sync does,
                                            importing nothing; print a markdown table: state, upcoming
                                            events, where their places come from, the next event`;

type Command =
  | { action: 'link'; url: string; keyId: string }
  | { action: 'list'; keyId: string | undefined }
  | { action: 'unlink'; id: string }
  | { action: 'check'; feeds: string | undefined };

const usage = (message: string) => new UsageError(message);

/** Validates the arguments before the database is opened. */
function parse(args: string[]): Command {
  const [action, ...rest] = args;
  const { values, positionals } = strictArgs(() =>
    parseArgs({ args: rest, allowPositionals: true, options: { key: { type: 'string' }, feeds: { type: 'string' } } }),
  );
  if (values.feeds !== undefined && action !== 'check') throw usage(`calendars ${action ?? ''} takes no --feeds`);
  if (action === 'link') {
    if (positionals.length !== 1) throw usage('calendars link needs exactly one <url>');
    if (!values.key) throw usage('calendars link needs --key <key id>');
    return { action, url: positionals[0]!, keyId: values.key };
  }
  if (action === 'list') {
    if (positionals.length > 0) throw usage('calendars list takes no arguments but --key');
    return { action, keyId: values.key };
  }
  if (action === 'unlink') {
    if (positionals.length !== 1 || values.key) throw usage('calendars unlink needs exactly one calendar id');
    return { action, id: positionals[0]! };
  }
  if (action === 'check') {
    if (positionals.length > 0 || values.key) throw usage('calendars check takes no arguments but --feeds');
    return { action, feeds: values.feeds };
  }
  throw usage(`Unknown calendars command "${action ?? ''}"`);
}

/**
 * `tech-events calendars …`: the operator's side of POST/GET/DELETE /api/calendars, by key id; asks the running
 * service while it owns the embedded database, as `keys` does.
 */
export async function calendarsCommand(args: string[]): Promise<void> {
  const command = parse(args);
  if (command.action === 'check') {
    const [{ loadConfig }, { loadFeeds }, { HttpReader }, { renderCalendarCheck }, { checkCalendars }] =
      await Promise.all([
        import('../config.js'),
        import('../importers/feeds.js'),
        import('../importers/http-reader.js'),
        import('../render/calendar-check.js'),
        import('../use-cases/check-calendars.js'),
      ]);
    // Reads only the calendars: no database, so it runs beside a serving process too.
    const config = loadConfig();
    const feeds = await loadFeeds(resolve(command.feeds ?? config.feedsFile.path), { optional: !command.feeds });
    const now = config.fixedNow ?? new Date();
    const reader = new HttpReader();
    const checks = await checkCalendars(feeds, {
      now,
      baseUrl: config.baseUrl,
      timeoutMs: config.calendars.readTimeoutMs,
      reader,
    }).finally(() => reader.close());
    process.stdout.write(checks.length > 0 ? renderCalendarCheck(checks, now) : 'No calendars in the feeds file.\n');
    return;
  }
  if (command.action === 'link') {
    const { keyId, url } = command;
    const link = await onDatabaseOrService({ command: 'calendars.link', keyId, url });
    if (!link.created) console.log(`Key ${keyId} has this calendar linked already, as ${link.id}.`);
    else if (link.counts) {
      const { created, updated, cancelled, skipped } = link.counts;
      console.log(
        `Linked ${link.id} to key ${keyId}: created ${created}, updated ${updated}, cancelled ${cancelled}, skipped ${skipped}.`,
      );
      if (link.cut) console.log(`Its calendar was ${link.cut}.`);
    } else console.log(`Linked ${link.id} to key ${keyId}; its first sync failed: ${link.error}`);
  } else if (command.action === 'list') {
    const { keyId } = command;
    const lists = await onDatabaseOrService({ command: 'calendars.list', ...(keyId ? { keyId } : {}) });
    let any = false;
    for (const { keyId: key, calendars } of lists) {
      for (const c of calendars) {
        any = true;
        const error = c.lastError ? `\t${c.lastError}` : '';
        console.log(`${c.id}\t${key}\t${c.state}\t${c.counts.listed} upcoming\t${c.url}${error}`);
      }
    }
    if (!any) console.log('No linked calendars.');
  } else {
    const { id } = command;
    const { retired } = await onDatabaseOrService({ command: 'calendars.unlink', id });
    console.log(`Unlinked ${id}; ${retired} upcoming event${retired === 1 ? '' : 's'} retired.`);
  }
}
