import { parseArgs } from 'node:util';
import { ServiceError } from '../catalogue/errors.js';
import type { AppContext } from '../context.js';
import { linkCalendar, listCalendars, unlinkCalendar } from '../use-cases/calendars.js';

export const CALENDARS_USAGE = `  calendars link <url> --key <key id>       link an iCal feed to a host's key; its events are imported
                                            at once and synced with the feeds from then on
  calendars list [--key <key id>]           linked calendars and how their last sync went
  calendars unlink <calendar id>            unlink a calendar; its upcoming events are retired`;

type Command =
  | { action: 'link'; url: string; keyId: string }
  | { action: 'list'; keyId: string | undefined }
  | { action: 'unlink'; id: string };

/** Validates the arguments before the database is opened; `usage` makes the error that prints the usage. */
function parse(args: string[], usage: (message: string) => Error): Command {
  const [action, ...rest] = args;
  let parsed: ReturnType<typeof parseArgs<{ allowPositionals: true; options: { key: { type: 'string' } } }>>;
  try {
    parsed = parseArgs({ args: rest, allowPositionals: true, options: { key: { type: 'string' } } });
  } catch (error) {
    throw usage((error as Error).message);
  }
  const { values, positionals } = parsed;
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
  throw usage(`Unknown calendars command "${action ?? ''}"`);
}

async function hostOf(ctx: AppContext, keyId: string) {
  const host = await ctx.keys.find(keyId);
  if (!host || host.revokedAt) throw new ServiceError('invalid-key', `No active key “${keyId}”.`);
  return host;
}

/** `tech-events calendars …`: the operator's side of POST/GET/DELETE /api/calendars, by key id. */
export async function calendarsCommand(
  args: string[],
  withContext: <T>(run: (ctx: AppContext) => Promise<T>) => Promise<T>,
  usage: (message: string) => Error,
): Promise<void> {
  const command = parse(args, usage);
  await withContext(async (ctx) => {
    if (command.action === 'link') {
      const { calendar, created, sync } = await linkCalendar(ctx, await hostOf(ctx, command.keyId), {
        url: command.url,
      });
      if (!created) console.log(`Key ${command.keyId} has this calendar linked already, as ${calendar.id}.`);
      else if (sync?.report) {
        const { created: c, updated, cancelled, skipped } = sync.report;
        console.log(
          `Linked ${calendar.id} to key ${command.keyId}: created ${c}, updated ${updated}, cancelled ${cancelled}, skipped ${skipped.length}.`,
        );
      } else console.log(`Linked ${calendar.id} to key ${command.keyId}; its first sync failed: ${sync?.error}`);
    } else if (command.action === 'list') {
      const keys = command.keyId
        ? [await hostOf(ctx, command.keyId)]
        : (await ctx.keys.list()).filter((k) => !k.revokedAt);
      let any = false;
      for (const key of keys) {
        for (const c of await listCalendars(ctx, key)) {
          any = true;
          const error = c.lastError ? `\t${c.lastError}` : '';
          console.log(`${c.id}\t${key.id}\t${c.state}\t${c.counts.listed} upcoming\t${c.url}${error}`);
        }
      }
      if (!any) console.log('No linked calendars.');
    } else {
      const calendar = await ctx.calendars.find(command.id);
      if (!calendar) throw new ServiceError('calendar-not-found', `No linked calendar “${command.id}”.`);
      const { retired } = await unlinkCalendar(ctx, await hostOf(ctx, calendar.keyId), command.id);
      console.log(`Unlinked ${command.id}; ${retired} upcoming event${retired === 1 ? '' : 's'} retired.`);
    }
  });
}
