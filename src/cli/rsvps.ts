import type { CapacityView, DecisionView, EventRsvpsView } from '../render/rsvp-json.js';
import { onDatabaseOrService } from './database-or-service.js';
import { UsageError } from './usage.js';

export const RSVPS_USAGE = `  rsvps list <event>                        an event's RSVPs: counts, then each by handle, state and
                                            waitlist place, in queue order
  rsvps approve <event> <handle>            approve a requested RSVP (registered, or waitlisted when full)
  rsvps decline <event> <handle>            decline a requested RSVP
  rsvps capacity <event> <places|none>      set the event's capacity; freed places go to the waitlist in order`;

type Command =
  | { action: 'list'; id: string }
  | { action: 'approve' | 'decline'; id: string; handle: string }
  | { action: 'capacity'; id: string; capacity: number | null };

/** Validates the arguments before the database is opened. */
function parse(args: string[]): Command {
  const [action, ...rest] = args;
  const flag = rest.find((a) => a.startsWith('-'));
  if (flag !== undefined) throw new UsageError(`rsvps ${action ?? ''} takes no option ${flag}`);
  if (action === 'list') {
    if (rest.length !== 1) throw new UsageError('rsvps list needs exactly one event id');
    return { action, id: rest[0]! };
  }
  if (action === 'approve' || action === 'decline') {
    if (rest.length !== 2) throw new UsageError(`rsvps ${action} needs an event id and an RSVP's handle`);
    return { action, id: rest[0]!, handle: rest[1]! };
  }
  if (action === 'capacity') {
    const [id, given, ...more] = rest;
    if (!id || given === undefined || more.length > 0)
      throw new UsageError('rsvps capacity needs an event id and a number of places (or none)');
    if (given === 'none') return { action, id, capacity: null };
    if (!/^[1-9][0-9]{0,7}$/.test(given))
      throw new UsageError('the capacity must be a whole number of places from 1, or none for no limit');
    return { action, id, capacity: Number(given) };
  }
  throw new UsageError(`Unknown rsvps command "${action ?? ''}"`);
}

function listText(list: EventRsvpsView): string {
  const { counts: c } = list;
  const lines = [
    `${list.eventId}: ${list.regMode}, capacity ${list.capacity ?? 'none'}; ${c.registered} registered, ` +
      `${c.waitlisted} waitlisted, ${c.requested} requested, ${c.declined} declined`,
  ];
  for (const r of list.rsvps)
    lines.push(`${r.handle}\t${r.status}${r.waitlistPlace ? ` #${r.waitlistPlace}` : ''}\t${r.since}`);
  return lines.join('\n');
}

function decisionText(d: DecisionView): string {
  const place = d.waitlistPlace ? ` (place ${d.waitlistPlace} on the waitlist)` : '';
  return `${d.handle} on ${d.eventId}: ${d.status}${place}${d.changed ? '' : ' — unchanged'}.`;
}

function capacityText(r: CapacityView): string {
  const set = `${r.eventId}: capacity ${r.capacity ?? 'none'}${r.changed ? '' : ' (unchanged)'}`;
  return `${set}; ${r.promoted} promoted from the waitlist; ${r.counts.registered} registered, ${r.counts.waitlisted} waitlisted.`;
}

/**
 * `tech-events rsvps …`: the operator answers an event's RSVPs for its host (any event), over the running service's
 * control socket while it owns the embedded database, as `proposals` does.
 */
export async function rsvpsCommand(args: string[]): Promise<void> {
  const command = parse(args);
  const { id } = command;
  if (command.action === 'list') {
    console.log(listText(await onDatabaseOrService({ command: 'rsvps.list', id })));
  } else if (command.action === 'capacity') {
    const { capacity } = command;
    console.log(capacityText(await onDatabaseOrService({ command: 'rsvps.capacity', id, capacity })));
  } else {
    const { handle, action: decision } = command;
    console.log(decisionText(await onDatabaseOrService({ command: 'rsvps.decide', id, handle, decision })));
  }
}
