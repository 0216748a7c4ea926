import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { ServiceError, ValidationError } from '../catalogue/errors.js';
import { urlField } from '../catalogue/submission.js';
import type { AppContext } from '../context.js';
import { checkAddress } from '../importers/http-reader.js';
import { parseSearchParams, searchQuerySchema } from '../query/params.js';
import type { ApiKeyRecord } from '../storage/keys.repository.js';
import type { WebhookMessage, WebhookSubscription } from '../storage/webhooks.repository.js';
import { httpUrl } from './calendars.js';

/** How long the secret before a rotation keeps signing, beside the new one. */
export const ROTATION_OVERLAP_MS = 24 * 3_600_000;
/** The deliveries a subscription shows (GET /api/webhooks/<id>). */
const DELIVERIES_SHOWN = 20;
/** Parameters of the grammar that shape a page, not a query: a subscription has no pages. */
const NOT_A_SUBSCRIPTION = ['limit', 'cursor'];

export const WEBHOOK_EVENT_TYPES = [
  'event.matched',
  'event.updated',
  'event.cancelled',
  'event.restored',
  'event.unmatched',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** A message as its subscription shows it: what was sent, and how its delivery goes. */
export const webhookDeliverySchema = z.object({
  id: z.string().describe('The message’s id (`msg_…`): the `webhook-id` header of every attempt'),
  type: z.enum(WEBHOOK_EVENT_TYPES),
  eventId: z.string(),
  createdAt: z.string(),
  state: z.enum(['pending', 'delivered', 'failed']).describe('`failed`: given up (after a day, or on 410)'),
  attempts: z.number().int(),
  lastAttemptAt: z.string().nullable(),
  lastStatus: z.number().int().nullable().describe('The HTTP status of the last attempt; null when none came back'),
  lastError: z.string().nullable(),
  nextAttemptAt: z.string().nullable().describe('When it is tried next, while pending'),
  deliveredAt: z.string().nullable(),
});

/** A subscription as its key sees it: never its secret, except once when it is made or rotated. */
export const webhookSummarySchema = z.object({
  id: z.string().describe('The subscription’s id (`whk_…`)'),
  url: z.string().describe('Where messages are POSTed'),
  query: z.record(z.string(), z.unknown()).describe('The query, as the grammar’s parameters given'),
  state: z
    .enum(['active', 'paused', 'disabled', 'deleted'])
    .describe('`paused`: by the key, or after a day of failed deliveries; `disabled`: the target answered 410'),
  stateReason: z.string().nullable().describe('Why it is paused or disabled, when the service did it'),
  failingSince: z.string().nullable().describe('Since when deliveries have failed, none working since'),
  createdAt: z.string(),
  previousSecretUntil: z.string().nullable().describe('After a rotation: until when the old secret signs too'),
});
export type WebhookSummary = z.output<typeof webhookSummarySchema>;

export const webhookDetailSchema = webhookSummarySchema.extend({
  deliveries: z.array(webhookDeliverySchema).describe('Its latest messages, newest first'),
});
export const webhookCreatedSchema = webhookSummarySchema.extend({
  secret: z.string().describe('`whsec_…`: verifies the signatures (Standard Webhooks); shown this once'),
});

export const webhookInputSchema = z.looseObject({
  url: urlField().meta({
    description: 'Where messages are POSTed: an http(s) URL on a public address.',
    examples: ['https://bot.example.org/hooks/tech-events'],
  }),
});

const iso = (d: Date | null) => d?.toISOString() ?? null;

function summaryOf(s: WebhookSubscription): WebhookSummary {
  return {
    id: s.id,
    url: s.url,
    query: s.query,
    state: s.state,
    stateReason: s.stateReason,
    failingSince: iso(s.failingSince),
    createdAt: s.createdAt.toISOString(),
    previousSecretUntil: s.previousUntil && s.previousUntil > new Date() ? s.previousUntil.toISOString() : null,
  };
}

function deliveryOf(m: WebhookMessage) {
  return {
    id: m.id,
    type: m.type as WebhookEventType,
    eventId: m.eventId,
    createdAt: m.createdAt.toISOString(),
    state: m.state,
    attempts: m.attempts,
    lastAttemptAt: iso(m.lastAttemptAt),
    lastStatus: m.lastStatus,
    lastError: m.lastError,
    nextAttemptAt: m.state === 'pending' ? m.nextAttemptAt.toISOString() : null,
    deliveredAt: iso(m.deliveredAt),
  };
}

/** A secret in the Standard Webhooks form: `whsec_` and the base64 of 24 random bytes. */
const newSecret = () => `whsec_${randomBytes(24).toString('base64')}`;

/** The target: http(s), no credentials, leading where a linked calendar may (checked again at each delivery). */
async function targetUrl(ctx: AppContext, input: string): Promise<string> {
  const url = httpUrl(input, 'http(s)');
  try {
    await checkAddress(url, ctx.calendarGuard);
  } catch (error) {
    throw new ValidationError([{ field: 'url', message: `is refused: ${(error as Error).message}` }]);
  }
  return url;
}

/** The query of a subscription: the grammar's parameters as given, checked by the grammar itself. */
function queryOf(fields: Record<string, unknown>): Record<string, unknown> {
  const { url: _url, ...rest } = fields;
  const known = new Set(Object.keys(searchQuerySchema.shape));
  const errors = Object.keys(rest).flatMap((name) =>
    !known.has(name)
      ? [{ field: name, message: 'is not a parameter of the query grammar (docs/contract.md)' }]
      : NOT_A_SUBSCRIPTION.includes(name)
        ? [{ field: name, message: 'shapes a page, not a query: a subscription has none' }]
        : [],
  );
  if (errors.length > 0) throw new ValidationError(errors);
  parseSearchParams(rest);
  return rest;
}

/** Subscribes a key's target to a query; the answer holds the secret, the only time it is shown. */
export async function createWebhook(
  ctx: AppContext,
  host: ApiKeyRecord,
  input: unknown,
): Promise<z.output<typeof webhookCreatedSchema>> {
  if (typeof input !== 'object' || input === null || Array.isArray(input))
    throw new ValidationError([
      { field: 'body', message: 'must be an object: {"url": …, and the query’s parameters}' },
    ]);
  const parsed = webhookInputSchema.safeParse(input);
  if (!parsed.success) throw new ValidationError([{ field: 'url', message: 'must be an http(s) URL' }]);
  const query = queryOf(input as Record<string, unknown>);
  const url = await targetUrl(ctx, parsed.data.url);
  const held = await ctx.webhooks.listByKey(host.id);
  if (held.length >= ctx.config.webhooks.perKey)
    throw new ServiceError(
      'too-many-webhooks',
      `This key has ${held.length} webhook subscriptions, the most it may have; delete one first.`,
    );
  const secret = newSecret();
  const subscription = await ctx.webhooks.create(host.id, url, query, secret);
  return { ...summaryOf(subscription), secret };
}

export async function listWebhooks(ctx: AppContext, host: ApiKeyRecord): Promise<WebhookSummary[]> {
  return (await ctx.webhooks.listByKey(host.id)).map(summaryOf);
}

const noWebhook = (id: string) =>
  new ServiceError('webhook-not-found', `This key has no webhook subscription “${id}”.`);

async function ownWebhook(ctx: AppContext, host: ApiKeyRecord, id: string): Promise<WebhookSubscription> {
  const subscription = await ctx.webhooks.find(id);
  if (!subscription || subscription.keyId !== host.id || subscription.state === 'deleted') throw noWebhook(id);
  return subscription;
}

/** A subscription with its latest deliveries. */
export async function readWebhook(ctx: AppContext, host: ApiKeyRecord, id: string) {
  const subscription = await ownWebhook(ctx, host, id);
  const messages = await ctx.webhooks.recentMessages(id, DELIVERIES_SHOWN);
  return { ...summaryOf(subscription), deliveries: messages.map(deliveryOf) };
}

/**
 * Pauses (no new messages are made for it; those pending wait) or resumes (pending messages go out again, the
 * failures forgotten) a subscription; resuming also re-enables one a 410 disabled.
 */
export async function setWebhookActive(
  ctx: AppContext,
  host: ApiKeyRecord,
  id: string,
  active: boolean,
): Promise<WebhookSummary> {
  await ownWebhook(ctx, host, id);
  const updated = await ctx.webhooks.setState(id, active ? 'active' : 'paused', active ? null : 'paused by its key');
  if (!updated) throw noWebhook(id);
  return summaryOf(updated);
}

/** A new secret, shown this once; the old one signs beside it for ROTATION_OVERLAP_MS. */
export async function rotateWebhookSecret(
  ctx: AppContext,
  host: ApiKeyRecord,
  id: string,
): Promise<z.output<typeof webhookCreatedSchema>> {
  await ownWebhook(ctx, host, id);
  const secret = newSecret();
  const updated = await ctx.webhooks.rotate(id, secret, ROTATION_OVERLAP_MS);
  if (!updated) throw noWebhook(id);
  return { ...summaryOf(updated), secret };
}

/** Ends a subscription: kept, as `deleted`, with its messages; nothing more is sent. */
export async function deleteWebhook(ctx: AppContext, host: ApiKeyRecord, id: string): Promise<WebhookSummary> {
  await ownWebhook(ctx, host, id);
  const updated = await ctx.webhooks.setState(id, 'deleted', 'deleted by its key');
  if (!updated) throw noWebhook(id);
  return summaryOf(updated);
}

/** Sends a message again, now, under its own id (a receiver that saw it may ignore it by that id). */
export async function resendWebhookMessage(ctx: AppContext, host: ApiKeyRecord, id: string, messageId: string) {
  await ownWebhook(ctx, host, id);
  const message = await ctx.webhooks.message(id, messageId);
  if (!message)
    throw new ServiceError('webhook-message-not-found', `Webhook subscription “${id}” sent no message “${messageId}”.`);
  const resent = await ctx.webhooks.resend(messageId);
  return deliveryOf(resent ?? message);
}
