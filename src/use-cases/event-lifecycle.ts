import type { Lifecycle } from '../catalogue/event.js';
import { keyOwner } from '../catalogue/event.js';
import { cancelQuerySchema, parseOrThrow } from '../catalogue/submission.js';
import type { AppContext } from '../context.js';
import type { ApiKeyRecord } from '../storage/keys.repository.js';
import { type LifecycleResult, setLifecycle } from './store-events.js';

async function setHostLifecycle(
  ctx: AppContext,
  host: ApiKeyRecord,
  target: unknown,
  lifecycle: Lifecycle,
): Promise<LifecycleResult> {
  const owner = keyOwner(host.id);
  const result = await setLifecycle(
    ctx.events,
    owner,
    `key:${host.id}`,
    parseOrThrow(cancelQuerySchema, target),
    lifecycle,
  );
  ctx.index?.apply(result.event);
  if (result.changed) ctx.metrics?.writes.inc({ action: lifecycle === 'cancelled' ? 'cancel' : 'restore' });
  return result;
}

/**
 * A host cancels one of its events (by its externalId, or by id and country): it leaves every listing and stops
 * taking RSVPs; nothing of it is destroyed. Cancelling twice changes nothing (`changed: false`).
 */
export function cancelEvent(ctx: AppContext, host: ApiKeyRecord, target: unknown): Promise<LifecycleResult> {
  return setHostLifecycle(ctx, host, target, 'cancelled');
}

/** A host restores a cancelled event: it returns exactly as it was. Restoring a listed one changes nothing. */
export function restoreEvent(ctx: AppContext, host: ApiKeyRecord, target: unknown): Promise<LifecycleResult> {
  return setHostLifecycle(ctx, host, target, 'listed');
}
