import { parseArgs } from 'node:util';
import { PROPOSAL_KINDS, PROPOSAL_STATES } from '../catalogue/proposal.js';
import type { ProposalDetail, ProposalFilter, ProposalView } from '../use-cases/proposals.js';
import { onDatabaseOrService } from './database-or-service.js';
import { strictArgs, UsageError } from './usage.js';

export const PROPOSALS_USAGE = `  proposals list [--state <${PROPOSAL_STATES.join('|')}>] [--kind calendar|key]
                                            proposed calendars and key requests, oldest first
  proposals show <id>                       a proposal: its preview or request, and every decision on it
  proposals accept <id>                     accept: a calendar is read now and synced from then on; a key
                                            request's key is shown once at its status URL
  proposals reject <id> --reason <text>     reject; its proposer reads the reason at its status URL
  proposals remove <id> [--reason <text>]   take an accepted calendar out (its upcoming events are
                                            retired) or revoke an accepted request's key`;

type Command =
  | { action: 'list'; filter: ProposalFilter }
  | { action: 'show' | 'accept'; id: string }
  | { action: 'reject'; id: string; reason: string }
  | { action: 'remove'; id: string; reason: string | undefined };

const OPTIONS = { state: { type: 'string' }, kind: { type: 'string' }, reason: { type: 'string' } } as const;

const usage = (message: string) => new UsageError(message);

/** Validates the arguments before the database is opened. */
function parse(args: string[]): Command {
  const [action, ...rest] = args;
  const { values, positionals } = strictArgs(() => parseArgs({ args: rest, allowPositionals: true, options: OPTIONS }));
  if (action === 'list') {
    if (positionals.length > 0 || values.reason !== undefined)
      throw usage('proposals list takes no arguments but --state and --kind');
    if (values.state !== undefined && !(PROPOSAL_STATES as readonly string[]).includes(values.state))
      throw usage(`--state must be one of ${PROPOSAL_STATES.join(', ')}`);
    if (values.kind !== undefined && !(PROPOSAL_KINDS as readonly string[]).includes(values.kind))
      throw usage(`--kind must be one of ${PROPOSAL_KINDS.join(', ')}`);
    return {
      action,
      filter: {
        ...(values.state ? { state: values.state as ProposalFilter['state'] } : {}),
        ...(values.kind ? { kind: values.kind as ProposalFilter['kind'] } : {}),
      },
    };
  }
  if (action !== 'show' && action !== 'accept' && action !== 'reject' && action !== 'remove')
    throw usage(`Unknown proposals command "${action ?? ''}"`);
  if (positionals.length !== 1) throw usage(`proposals ${action} needs exactly one proposal id`);
  if (values.state !== undefined || values.kind !== undefined)
    throw usage(`proposals ${action} takes no --state or --kind`);
  const id = positionals[0]!;
  if (action === 'reject') {
    if (!values.reason) throw usage('proposals reject needs --reason <text>: its proposer reads it');
    return { action, id, reason: values.reason };
  }
  if (action === 'remove') return { action, id, reason: values.reason };
  if (values.reason !== undefined) throw usage(`proposals ${action} takes no --reason`);
  return { action, id };
}

/** One line of the queue: id, kind, state, when, and what it is. */
function line(p: ProposalView): string {
  const what = p.calendar
    ? `${p.calendar.url}${p.calendar.preview ? `\t${p.calendar.preview.state}, ${p.calendar.preview.events} upcoming` : ''}`
    : `${p.keyRequest!.organisation} (${p.keyRequest!.country})`;
  return `${p.id}\t${p.kind}\t${p.state}\t${p.createdAt}\t${what}`;
}

/** A proposal in full, as `show` and the decisions print it. */
function details(p: ProposalDetail): string {
  const lines = [`${p.id}: ${p.kind} proposal, ${p.state}, proposed ${p.createdAt}`, `status: ${p.statusUrl}`];
  if (p.reason) lines.push(`reason: ${p.reason}`);
  if (p.calendar) {
    const c = p.calendar;
    lines.push(`calendar: ${c.url} (${c.platform}; proposed as ${c.given})`);
    lines.push(`name: ${c.name ?? '—'}; city: ${c.city ?? '—'}; country: ${c.country}`);
    const preview = c.preview;
    if (!preview) lines.push('preview: being read');
    else {
      const places = Object.entries(preview.places)
        .filter(([, n]) => n > 0)
        .map(([from, n]) => `${n} ${from}`)
        .join(', ');
      lines.push(
        `preview (${preview.readAt}): ${preview.state}, ${preview.events} upcoming${places ? `; places: ${places}` : ''}`,
      );
      if (preview.error) lines.push(`  error: ${preview.error}`);
      if (preview.alreadySynced)
        lines.push(`  already synced as ${preview.alreadySynced.calendar} of ${preview.alreadySynced.source}`);
      for (const e of preview.upcoming)
        lines.push(`  ${e.start}\t${e.title}\t${e.online ? 'online' : (e.place ?? '—')} (${e.placeFrom})`);
    }
  }
  if (p.keyRequest) {
    const k = p.keyRequest;
    lines.push(`organisation: ${k.organisation} (${k.country})${k.website ? `, ${k.website}` : ''}`);
    lines.push(`plans: ${k.plans}`);
    if (k.keyId) lines.push(`key: ${k.keyId}${k.keyShownAt ? `, shown ${k.keyShownAt}` : ', not shown yet'}`);
  }
  if (p.sync)
    lines.push(
      'error' in p.sync
        ? `first read failed: ${p.sync.error}`
        : `first read: created ${p.sync.created}, updated ${p.sync.updated}, cancelled ${p.sync.cancelled}, skipped ${p.sync.skipped}`,
    );
  for (const e of p.log) lines.push(`${e.at}\t${e.action}\tby ${e.actor}${e.reason ? `\t${e.reason}` : ''}`);
  return lines.join('\n');
}

/**
 * `tech-events proposals …`: the operator's queue of proposed calendars and key requests; asks the running service
 * while it owns the embedded database, as `keys` does.
 */
export async function proposalsCommand(args: string[]): Promise<void> {
  const command = parse(args);
  if (command.action === 'list') {
    const { filter } = command;
    const list = await onDatabaseOrService({ command: 'proposals.list', filter });
    console.log(list.length === 0 ? 'No proposals.' : list.map(line).join('\n'));
    return;
  }
  const { id } = command;
  if (command.action === 'show') {
    console.log(details(await onDatabaseOrService({ command: 'proposals.show', id })));
  } else if (command.action === 'accept') {
    const p = await onDatabaseOrService({ command: 'proposals.accept', id });
    console.log(`Accepted ${id}.`);
    console.log(details(p));
  } else if (command.action === 'reject') {
    const { reason } = command;
    await onDatabaseOrService({ command: 'proposals.reject', id, reason });
    console.log(`Rejected ${id}: ${reason}`);
  } else if (command.action === 'remove') {
    const { reason } = command;
    const { retired, kind } = await onDatabaseOrService({
      command: 'proposals.remove',
      id,
      ...(reason !== undefined ? { reason } : {}),
    });
    console.log(
      kind === 'calendar'
        ? `Removed ${id}; ${retired} upcoming event${retired === 1 ? '' : 's'} retired.`
        : `Removed ${id}; its key is revoked.`,
    );
  }
}
