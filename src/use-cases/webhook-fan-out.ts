import { type CatalogueEvent, endsAt } from '../catalogue/event.js';
import type { ServingContext } from '../context.js';
import { parseSearchParams } from '../query/params.js';
import { EventsRepository } from '../storage/events.repository.js';
import type { Decision, WebhookSubscription, WebhooksRepository } from '../storage/webhooks.repository.js';
import type { WebhookEventType } from './webhooks.js';

/** The body of a message (render/webhook-json.ts): the service passes it in, as rendering sits above use cases. */
export type WebhookPayload = (
  type: WebhookEventType,
  subscriptionId: string,
  event: CatalogueEvent,
  at: Date,
) => string;

/** Changes claimed per fan-out step. */
const CHANGES_PER_STEP = 500;

type Status = Decision['status'];

/** What of an event a matched event's receiver is told again when it changes: time, place, title and status. */
function fingerprintOf(e: CatalogueEvent): string {
  return JSON.stringify([
    e.start.getTime(),
    e.end?.getTime() ?? null,
    e.allDay,
    e.city,
    e.venue,
    e.format,
    e.lat,
    e.lng,
    e.title,
    e.lifecycle,
  ]);
}

/** The message a change of decision sends, if any (docs/api.md, Webhooks). */
export function messageFor(before: Status, now: Status, changed: boolean): WebhookEventType | undefined {
  if (now === 'matched')
    return before === 'matched'
      ? changed
        ? 'event.updated'
        : undefined
      : before === 'cancelled'
        ? 'event.restored'
        : 'event.matched';
  if (before !== 'matched') return undefined;
  return now === 'cancelled' ? 'event.cancelled' : 'event.unmatched';
}

/** Whether a subscription's query matches events, by id, as the read index shows them now (never, if it no longer parses). */
function matcherOf(ctx: ServingContext, subscription: WebhookSubscription, now: Date): (id: string) => boolean {
  try {
    return ctx.index.matcher(parseSearchParams(subscription.query), now);
  } catch {
    return () => false;
  }
}

/**
 * One fan-out step: claims queued changes, and for each changed event that is upcoming (and if listed, held by this
 * node's read index at its current revision) decides per active subscription whether it matches now, writes the
 * messages that follow from the last decision and the new one, and deletes the changes — in one transaction, so a
 * crash redoes the step whole. Events the index has not caught up with keep their changes for a later step.
 * Undefined when another node fans out now.
 */
export async function fanOutStep(
  ctx: ServingContext,
  payload: WebhookPayload,
): Promise<{ done: number; waiting: number } | undefined> {
  return ctx.webhooks.fanOut(CHANGES_PER_STEP, async (changes, trx, db) => {
    if (changes.length === 0) return { done: 0, waiting: 0 };
    const ids = [...new Set(changes.map((c) => c.eventId))];
    const events = await new EventsRepository(db).findManyByIds(ids);
    const subscriptions = await trx.active();
    const decisions = await trx.decisions(ids);
    // From here on synchronous until the writes: matchers read the index as it is now.
    const now = ctx.now();
    const matchers = subscriptions.map((s) => ({ s, matches: matcherOf(ctx, s, now) }));
    const byId = new Map(events.map((e) => [e.id, e]));
    const waiting = new Set<string>();
    const messages: Parameters<WebhooksRepository['addMessages']>[0] = [];
    const saved: Parameters<WebhooksRepository['saveDecisions']>[0] = [];
    const at = new Date();
    for (const id of ids) {
      const event = byId.get(id);
      if (!event) continue;
      // Nothing is sent for an event that is over.
      if (endsAt(event) <= now.getTime()) continue;
      // Only a listed, public event can match: the index must hold it at the revision read, neither before nor after
      // (a write committed since the read: its change is queued, and the row is read again). A cancelled or unlisted
      // event need not be in the index (after a restart it is not).
      const visible = event.lifecycle === 'listed' && event.visibility === 'public';
      if (visible && (!ctx.index.holds(id, event.revision) || ctx.index.holds(id, event.revision + 1))) {
        waiting.add(id);
        continue;
      }
      const fingerprint = fingerprintOf(event);
      for (const { s, matches } of matchers) {
        const last = decisions.get(`${s.id} ${id}`);
        if (last && last.revision >= event.revision) continue;
        const before: Status = last?.status ?? 'unmatched';
        const status: Status =
          event.lifecycle === 'cancelled'
            ? before === 'unmatched'
              ? 'unmatched'
              : 'cancelled'
            : visible && matches(id)
              ? 'matched'
              : 'unmatched';
        const type = messageFor(before, status, last !== undefined && last.fingerprint !== fingerprint);
        if (type) messages.push({ subscriptionId: s.id, eventId: id, type, payload: payload(type, s.id, event, at) });
        if (last || status !== 'unmatched')
          saved.push({ subscription_id: s.id, event_id: id, status, fingerprint, revision: event.revision });
      }
    }
    await trx.addMessages(messages);
    await trx.saveDecisions(saved);
    await trx.deleteChanges(changes.filter((c) => !waiting.has(c.eventId)).map((c) => c.seq));
    return { done: changes.length - changes.filter((c) => waiting.has(c.eventId)).length, waiting: waiting.size };
  });
}
