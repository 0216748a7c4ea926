import { z } from 'zod';
import { ServiceError, shownValue, ValidationError } from '../catalogue/errors.js';
import { type CatalogueEvent, type EventContent, HOST_SOURCE, keyOwner } from '../catalogue/event.js';
import { resolveSubmission } from '../catalogue/resolve-content.js';
import { eventSubmissionSchema, parseOrThrow } from '../catalogue/submission.js';
import { type WriteWarning, writeWarnings } from '../catalogue/write-warnings.js';
import type { AppContext } from '../context.js';
import type { ApiKeyRecord } from '../storage/keys.repository.js';
import { fillAfterWrite } from './rsvp.js';
import { retiresAbsent, storeList } from './store-many.js';

/** Events one batch may carry. */
export const MAX_BATCH = 1_000;

const batchSchema = z.strictObject(
  {
    events: z
      .array(z.unknown(), { error: `must be a list of 1 to ${MAX_BATCH} event submissions, each with its externalId` })
      .min(1, 'must hold at least one event')
      .max(MAX_BATCH, `must hold at most ${MAX_BATCH} events; send more batches`),
    complete: z
      .boolean({ error: 'must be true or false' })
      .optional()
      .describe("true: the batch is the key's complete list of upcoming events; those missing from it are cancelled"),
  },
  { error: 'must be a JSON object {"events": [ … ], "complete": true|false}' },
);

/** What became of one item of a batch, in request order: stored, or refused alone with why. */
export type BatchItemResult =
  | { externalId: string; event: CatalogueEvent; created: boolean; warnings: WriteWarning[] }
  | { externalId: string | undefined; error: ServiceError };

export interface BatchResult {
  results: BatchItemResult[];
  /** With `complete`: the key's upcoming events the batch left out, now cancelled (reversibly). */
  cancelled: CatalogueEvent[];
}

/** The number of items a batch body carries, for rate limits before any work (0 when it is not a batch). */
export function batchSize(body: unknown): number {
  const events = (body as { events?: unknown } | null)?.events;
  return Array.isArray(events) ? events.length : 0;
}

interface Prepared {
  externalId: string;
  content: EventContent;
  submission: unknown;
  endGiven: boolean;
}

/** Validates and resolves one item as POST /api/events would, with field names prefixed `events[i].`. */
function prepare(host: ApiKeyRecord, item: unknown, index: number, taken: Set<string>): Prepared {
  const prefix = `events[${index}].`;
  const submission = parseOrThrow(eventSubmissionSchema, item, prefix);
  const { externalId } = submission;
  if (!externalId) {
    const message = "is required in a batch: the host's own stable id of the event, once per batch";
    throw new ValidationError([{ field: `${prefix}externalId`, message }]);
  }
  if (taken.has(externalId)) {
    const message = 'repeats an earlier item of this batch: each event once, under its own externalId';
    throw new ValidationError([{ field: `${prefix}externalId`, message, given: shownValue(externalId) }]);
  }
  taken.add(externalId);
  try {
    const content = resolveSubmission(submission, { country: host.country, organizer: host.name });
    return { externalId, content, submission: item, endGiven: submission.endAt !== undefined };
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    throw new ValidationError(error.errors.map((e) => ({ ...e, field: `${prefix}${e.field}` })));
  }
}

/**
 * A host pushes many events at once (a platform syncing its listings): each item is validated and stored exactly as
 * POST /api/events would store it — idempotent on its externalId, which every item must carry — and a bad item is
 * refused alone. All good items are stored in one transaction, which holds the host's lock: the host's batches run
 * one after the other, on every app node. With `complete: true` the batch is the host's whole list of upcoming
 * events: those it leaves out are cancelled (reversibly), events sent without an externalId included, and items of
 * cancelled events are restored — unless not one item was usable (see retiresAbsent). Events and read index are in
 * step before this returns.
 */
export async function submitBatch(ctx: AppContext, host: ApiKeyRecord, body: unknown): Promise<BatchResult> {
  const { events, complete } = parseOrThrow(batchSchema, body);
  const owner = keyOwner(host.id);
  const identity = { owner, source: HOST_SOURCE, actor: `key:${host.id}` };
  const taken = new Set<string>();
  const results: (BatchItemResult | undefined)[] = new Array(events.length);
  const good: (Prepared & { index: number })[] = [];
  // Items that name an externalId, even refused ones: `complete` does not cancel what the host did send.
  const named = new Set<string>();
  events.forEach((item, index) => {
    const externalId = (item as { externalId?: unknown } | null)?.externalId;
    if (typeof externalId === 'string') named.add(externalId);
    try {
      good.push({ ...prepare(host, item, index, taken), index });
    } catch (error) {
      if (!(error instanceof ServiceError)) throw error;
      results[index] = { externalId: typeof externalId === 'string' ? externalId : undefined, error };
    }
  });
  const retires = complete === true && retiresAbsent(good.length, events.length - good.length);
  const now = ctx.now();
  // Not one usable item: nothing to store, and (a broken list, not an empty one) nothing to cancel.
  if (good.length === 0 && !retires) return { results: results as BatchItemResult[], cancelled: [] };
  const { results: stored, cancelled } = await storeList(
    ctx.storage,
    identity,
    good.map((g) => ({ ...g, ...(complete ? { lifecycle: 'listed' as const } : {}) })),
    retires ? { named, now } : undefined,
  );
  for (const result of stored) await fillAfterWrite(ctx, result.previous, result.event);
  stored.forEach((result, n) => {
    const { index, externalId, content, endGiven } = good[n]!;
    const warnings = writeWarnings(content, endGiven, now);
    results[index] = { externalId, event: result.event, created: result.created, warnings };
    ctx.index?.apply(result.event);
    if (result.changed) ctx.metrics?.writes.inc({ action: result.created ? 'create' : 'update' });
    if (result.lifecycleChanged) ctx.metrics?.writes.inc({ action: 'restore' });
  });
  for (const event of cancelled) {
    ctx.index?.apply(event);
    ctx.metrics?.writes.inc({ action: 'cancel' });
  }
  return { results: results as BatchItemResult[], cancelled };
}
