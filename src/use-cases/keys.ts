import { z } from 'zod';
import { parseKey, secretMatches } from '../auth/api-keys.js';
import { GRACE_MESSAGE, MAX_GRACE_SECONDS, parseGrace } from '../auth/duration.js';
import { ServiceError, ValidationError } from '../catalogue/errors.js';
import { parseOrThrow, requiredText } from '../catalogue/submission.js';
import type { AppContext } from '../context.js';
import { COUNTRIES } from '../places/countries.js';
import type { ApiKeyRecord } from '../storage/keys.repository.js';

/** A host key as it may be shown: never its secret. */
export interface KeySummary {
  id: string;
  name: string;
  country: string;
  createdAt: string;
  revokedAt: string | null;
  /** When the key last got a new secret; null if never rotated. */
  rotatedAt: string | null;
  /** Until when the secret before the last rotation still works (a grace period); null when it no longer does. */
  previousSecretExpiresAt: string | null;
}

/** The summary of a key at `now` (a grace period shows only while it lasts). */
export function keySummary(record: ApiKeyRecord, now: Date): KeySummary {
  return {
    id: record.id,
    name: record.name,
    country: record.country,
    createdAt: record.createdAt.toISOString(),
    revokedAt: record.revokedAt?.toISOString() ?? null,
    rotatedAt: record.rotatedAt?.toISOString() ?? null,
    previousSecretExpiresAt: inGrace(record, now) ? record.previousSecret!.until.toISOString() : null,
  };
}

/** Whether the secret replaced by the last rotation still works at `now`. */
function inGrace(record: ApiKeyRecord, now: Date): boolean {
  return !record.revokedAt && record.previousSecret !== null && now < record.previousSecret.until;
}

export const createKeySchema = z.strictObject({
  // The host's name is every event's default organizer: text under the write API's policy.
  name: requiredText(200).trim(),
  country: z.enum(COUNTRIES).default('ch'),
});

/** The body of a rotation request: `grace` as typed (`2h`), parsed to seconds. */
export const rotateKeySchema = z.strictObject({
  grace: z
    .string()
    .meta({
      description:
        'How long the secret being replaced keeps working: a whole number and s, m, h or d (at most 30d). ' +
        'Without it, the old secret stops working at once.',
      examples: ['30m', '2h', '1d'],
    })
    .transform((text, ctx) => {
      const seconds = parseGrace(text);
      if (seconds === undefined) {
        ctx.addIssue({ code: 'custom', message: GRACE_MESSAGE });
        return z.NEVER;
      }
      return seconds;
    })
    .optional(),
});

/** The key record of a presented key, or undefined for an unknown, revoked or malformed one. */
export async function authenticate(ctx: AppContext, token: string): Promise<ApiKeyRecord | undefined> {
  const parsed = parseKey(token);
  if (!parsed) return undefined;
  const record = await ctx.keys.find(parsed.id);
  if (!record || record.revokedAt) return undefined;
  if (secretMatches(parsed.secret, record.secretHash)) return record;
  // The secret replaced by the last rotation, while its grace period lasts.
  const previous = record.previousSecret;
  if (previous && inGrace(record, ctx.now()) && secretMatches(parsed.secret, previous.hash)) return record;
  return undefined;
}

/** The id a token claims, unchecked: a write may start reading with it, but uses it only if the key checks out. */
export function claimedKeyId(token: string | undefined): string | undefined {
  return token ? parseKey(token)?.id : undefined;
}

/** The host a presented key belongs to: `missing-key` without one, `invalid-key` for an unknown or revoked one. */
export async function requireHost(ctx: AppContext, token: string | undefined): Promise<ApiKeyRecord> {
  if (token === undefined) throw new ServiceError('missing-key');
  const record = token ? await authenticate(ctx, token) : undefined;
  if (!record) throw new ServiceError('invalid-key');
  return record;
}

/** Issues a host key; the result holds the only copy of its secret. */
export async function issueKey(ctx: AppContext, input: unknown): Promise<{ summary: KeySummary; key: string }> {
  const { name, country } = parseOrThrow(createKeySchema, input);
  const { record, key } = await ctx.keys.create(name, country);
  return { summary: keySummary(record, ctx.now()), key };
}

export async function listKeys(ctx: AppContext): Promise<KeySummary[]> {
  const now = ctx.now();
  return (await ctx.keys.list()).map((record) => keySummary(record, now));
}

/** Revokes a key at once; `changed` is false when it was revoked already. */
export async function revokeKey(ctx: AppContext, id: string): Promise<{ summary: KeySummary; changed: boolean }> {
  if (!(await ctx.keys.find(id))) throw new ServiceError('not-found', `No key with id "${id}".`);
  const changed = await ctx.keys.revoke(id);
  return { summary: keySummary((await ctx.keys.find(id))!, ctx.now()), changed };
}

/**
 * Gives key `id` a new secret, keeping its id and all it owns; the result holds the only copy. The old secret stops at
 * once or after `graceSeconds`; a rotation during a grace ends it (the oldest secret stops). The caller checks rights.
 */
export async function rotateKey(
  ctx: AppContext,
  id: string,
  { graceSeconds = 0 }: { graceSeconds?: number } = {},
): Promise<{ summary: KeySummary; key: string }> {
  if (!Number.isInteger(graceSeconds) || graceSeconds < 0 || graceSeconds > MAX_GRACE_SECONDS) {
    throw new ValidationError([{ field: 'grace', message: GRACE_MESSAGE }]);
  }
  const now = ctx.now();
  const graceUntil = graceSeconds > 0 ? new Date(now.getTime() + graceSeconds * 1000) : null;
  const rotated = await ctx.keys.rotate(id, now, graceUntil);
  if (!rotated) {
    const record = await ctx.keys.find(id);
    if (!record) throw new ServiceError('not-found', `No key with id "${id}".`);
    throw new ServiceError('key-revoked', `Key ${id} is revoked: it cannot be rotated. Issue a new key instead.`);
  }
  return { summary: keySummary(rotated.record, now), key: rotated.key };
}
