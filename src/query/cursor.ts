import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { ValidationError } from '../catalogue/errors.js';

/**
 * Opaque pagination cursors. A cursor names where the next page starts — the sort key of the last event served —
 * plus what it needs to keep its promises when the catalogue changes between pages:
 * - `digest`: the state of what was paged (see `shownDigest`); while it is the same, the next page is exactly the
 *   continuation one large call would give;
 * - `seen`: a Bloom filter of every event served so far. Once the state differs (an event added, changed or gone, or
 *   a new day for prompts with date words), events whose position moved back past the cursor are recognised and not
 *   served again. A filter can mistake an unserved event for a served one (under 0.1 % after 1,000 events, 4 % after
 *   5,000): after a change, a page may then leave out an event, but never repeats one.
 * Cursors are signed (HMAC-SHA256, a secret shared by all app nodes through the database) and bound to their query:
 * a tampered cursor, or one used with other parameters, is a 422.
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

/**
 * A digest of a set of events (id and revision each), the same whatever order they came in: XOR of their hashes,
 * so an index can keep it up to date as events come and go. Nodes holding the same events agree on it.
 */
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
