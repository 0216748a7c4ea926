import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Host API keys look like `tev_<id>_<secret>`: the recognisable prefix lets secret scanners and humans
 * spot a leaked key, the public id finds the row, and only a SHA-256 hash of the 256-bit secret is stored.
 * (A slow password hash buys nothing for a random 256-bit secret.)
 */
export const KEY_PREFIX = 'tev_';
const KEY_SHAPE = /^tev_([a-f0-9]{12})_([A-Za-z0-9_-]{43})$/;

export interface IssuedKey {
  id: string;
  key: string;
  secretHash: Buffer;
}

export function issueKey(): IssuedKey {
  return issueSecret(randomBytes(6).toString('hex'));
}

/** A new secret for the key `id` (a new key, or a rotated one that keeps its id and so its events). */
export function issueSecret(id: string): IssuedKey {
  const secret = randomBytes(32).toString('base64url');
  return { id, key: `${KEY_PREFIX}${id}_${secret}`, secretHash: hashSecret(secret) };
}

export function parseKey(key: string): { id: string; secret: string } | undefined {
  const match = KEY_SHAPE.exec(key);
  return match ? { id: match[1]!, secret: match[2]! } : undefined;
}

export function hashSecret(secret: string): Buffer {
  return createHash('sha256').update(secret, 'utf8').digest();
}

/** Constant-time comparison of a presented secret with a stored hash. */
export function secretMatches(secret: string, storedHash: Buffer): boolean {
  const presented = hashSecret(secret);
  return presented.length === storedHash.length && timingSafeEqual(presented, storedHash);
}
