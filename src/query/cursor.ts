import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { ValidationError } from '../catalogue/errors.js';

/**
 * Opaque pagination cursors: the last served event's sort key, plus what keeps their promises when the catalogue
 * changes between pages:
 * - `digest`: the state paged (see `shownDigest`); while it holds, the next page continues exactly as one large call;
 * - `seen`: a Bloom filter of the events served, so after a change none is served again; a false positive may leave
 *   an event out, but a page never repeats one.
 * Signed (HMAC-SHA256, a secret shared by all nodes through the database) and bound to their query: else 422.
 */

/** Where a page starts: after this event in the order of the listing (score only for ranked prompts). */
export interface PageKey {
  score?: number;
  startMs: number;
  id: string;
}

export interface CursorState {
  key: PageKey;
  digest: number;
  /** Local day (days since the epoch in the country's zone) the cursor was made on. */
  day: number;
  seen: SeenFilter;
}

/** Scores in points (see POINTS_PER_WEIGHT); cursors of another version are refused. */
const CURSOR_VERSION = 2;

const BITS = 32_768;
const HASHES = 4;

/** 32-bit FNV-1a of a string, with a seed. */
export function fnv1a(text: string, seed = 0x811c9dc5): number {
  let hash = seed >>> 0;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

/** A Bloom filter of event ids (32,768 bits, 4 hashes by double hashing). */
export class SeenFilter {
  constructor(readonly bits: Uint8Array = new Uint8Array(BITS / 8)) {}

  private positions(id: string): number[] {
    const h1 = fnv1a(id);
    const h2 = fnv1a(id, 0x9747b28c) | 1;
    return Array.from({ length: HASHES }, (_, i) => ((h1 + i * h2) % BITS) >>> 0);
  }

  add(id: string): void {
    for (const p of this.positions(id)) this.bits[p >>> 3]! |= 1 << (p & 7);
  }

  has(id: string): boolean {
    return this.positions(id).every((p) => (this.bits[p >>> 3]! & (1 << (p & 7))) !== 0);
  }
}

/** A set's digest as XOR of (id, revision) hashes: order-free, kept up to date as events come and go. */
export function eventDigest(id: string, revision: number): number {
  return fnv1a(`${id}\u0000${revision}`);
}

const b64 = (buffer: Buffer) => buffer.toString('base64url');

function querySignature(query: string): string {
  return createHash('sha256').update(query).digest('base64url').slice(0, 16);
}

function mac(secret: Buffer, payload: string): Buffer {
  return createHmac('sha256', secret).update(payload).digest().subarray(0, 16);
}

/** The cursor of the page after the one served, for `query` (its canonical form, without limit and cursor). */
export function encodeCursor(secret: Buffer, query: string, state: CursorState): string {
  const { key } = state;
  const payload = b64(
    Buffer.from(
      JSON.stringify({
        v: CURSOR_VERSION,
        q: querySignature(query),
        k: [key.score ?? null, key.startMs, key.id],
        d: state.digest,
        t: state.day,
        s: b64(deflateRawSync(state.seen.bits)),
      }),
    ),
  );
  return `${payload}.${b64(mac(secret, payload))}`;
}

const invalid = (message: string) => new ValidationError([{ field: 'cursor', message }]);

/** Reads a cursor made by `encodeCursor` for the same query, or throws a 422 naming `cursor`. */
export function decodeCursor(secret: Buffer, query: string, cursor: string): CursorState {
  const [payload, signature, ...rest] = cursor.split('.');
  if (!payload || !signature || rest.length > 0 || cursor.length > 16_384) throw invalid('is not a cursor of ours');
  const expected = mac(secret, payload);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    throw invalid('is not a cursor of ours, or was altered; follow the `next` link of the previous page');
  let data: { v?: unknown; q?: unknown; k?: unknown; d?: unknown; t?: unknown; s?: unknown };
  try {
    data = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    throw invalid('is not a cursor of ours');
  }
  if (data.q !== querySignature(query))
    throw invalid('belongs to another query: keep every parameter but limit as it was on the first page');
  if (data.v !== CURSOR_VERSION) throw invalid('is not a cursor of ours');
  const [score, startMs, id] = data.k as [number | null, number, string];
  const seen = new SeenFilter(new Uint8Array(inflateRawSync(Buffer.from(String(data.s), 'base64url'))));
  if (seen.bits.length !== BITS / 8) throw invalid('is not a cursor of ours');
  return {
    key: { ...(score === null ? {} : { score }), startMs, id },
    digest: Number(data.d),
    day: Number(data.t),
    seen,
  };
}
