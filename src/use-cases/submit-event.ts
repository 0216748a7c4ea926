import { type CatalogueEvent, HOST_SOURCE, keyOwner } from '../catalogue/event.js';
import { resolveSubmission } from '../catalogue/resolve-content.js';
import { eventSubmissionSchema, parseOrThrow } from '../catalogue/submission.js';
import { type WriteWarning, writeWarnings } from '../catalogue/write-warnings.js';
import type { AppContext } from '../context.js';
import { claimedKeyId, requireHost } from './keys.js';
import { fillAfterWrite } from './rsvp.js';
import { type StoredRead, upsertEvent } from './store-events.js';

export interface SubmitResult {
  event: CatalogueEvent;
  /** True when the event was created; false when the host's externalId named one it had sent before. */
  created: boolean;
  /** What the host should know about what was stored (an event already over). */
  warnings: WriteWarning[];
}

/**
 * A host creates an event, or replaces the content of the one it sent before with the same externalId (docs/contract.md, An event, as written):
 * the key checked (`missing-key`, `invalid-key`), validated like every write, resolved (country, currency, place,
 * topics), stored with its revision, and shown in the read index before this returns.
 */
export async function submitEvent(ctx: AppContext, token: string | undefined, body: unknown): Promise<SubmitResult> {
  const read = readAhead(ctx, token, body);
  const host = await requireHost(ctx, token);
  const submission = parseOrThrow(eventSubmissionSchema, body);
  const content = resolveSubmission(submission, { country: host.country, organizer: host.name });
  const identity = {
    owner: keyOwner(host.id),
    externalId: submission.externalId ?? null,
    source: HOST_SOURCE,
    actor: `key:${host.id}`,
  };
  const ahead = await read;
  const stored = ahead && ahead.externalId === submission.externalId ? ahead.stored : undefined;
  const { event, created, changed, previous } = await upsertEvent(ctx.events, identity, content, body, stored);
  ctx.index?.apply(event);
  await fillAfterWrite(ctx, previous, event);
  if (changed) ctx.metrics?.writes.inc({ action: created ? 'create' : 'update' });
  return { event, created, warnings: writeWarnings(content, submission.endAt !== undefined, ctx.now()) };
}

/**
 * The event stored under the body's externalId for the key the token claims, read while the key is checked: both
 * need only the key's id, so a write takes one database round trip less. Used only once the key checks out, and
 * only for the externalId the submission turns out to carry; a failed read is read again in the write's own try.
 */
function readAhead(
  ctx: AppContext,
  token: string | undefined,
  body: unknown,
): Promise<{ externalId: string; stored: StoredRead } | undefined> | undefined {
  const keyId = claimedKeyId(token);
  const externalId = (body as { externalId?: unknown } | null)?.externalId;
  if (keyId === undefined || typeof externalId !== 'string') return undefined;
  return ctx.events.findByExternalId(keyOwner(keyId), externalId).then(
    (event) => ({ externalId, stored: { event } }),
    () => undefined,
  );
}
