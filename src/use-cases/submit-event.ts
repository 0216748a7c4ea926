import { type CatalogueEvent, HOST_SOURCE, keyOwner } from '../catalogue/event.js';
import { resolveSubmission } from '../catalogue/resolve-content.js';
import { eventSubmissionSchema, parseOrThrow } from '../catalogue/submission.js';
import type { AppContext } from '../context.js';
import type { ApiKeyRecord } from '../storage/keys.repository.js';
import { upsertEvent } from './store-events.js';

export interface SubmitResult {
  event: CatalogueEvent;
  /** True when the event was created; false when the host's externalId named one it had sent before. */
  created: boolean;
}

/**
 * A host creates an event, or replaces the content of the one it sent before with the same externalId (spec §4.5):
 * validated like every write, resolved (country, currency, place, topics), stored with its revision, and shown in
 * the read index before this returns.
 */
export async function submitEvent(ctx: AppContext, host: ApiKeyRecord, body: unknown): Promise<SubmitResult> {
  const submission = parseOrThrow(eventSubmissionSchema, body);
  const content = resolveSubmission(submission, { country: host.country, organizer: host.name });
  const identity = {
    owner: keyOwner(host.id),
    externalId: submission.externalId ?? null,
    source: HOST_SOURCE,
    actor: `key:${host.id}`,
  };
  const { event, created, changed } = await upsertEvent(ctx.events, identity, content, body);
  ctx.index?.apply(event);
  if (changed) ctx.metrics?.writes.inc({ action: created ? 'create' : 'update' });
  return { event, created };
}
