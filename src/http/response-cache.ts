import { type BrotliOptions, brotliCompressSync, constants, gzipSync, type ZlibOptions } from 'node:zlib';
import { negotiate } from '@fastify/accept-negotiator';
import { LRUCache } from 'lru-cache';

/**
 * A bounded LRU of rendered read responses. The catalogue is read far more than written (calendar clients poll
 * the same feed URLs, crawlers re-fetch pages, assistants repeat searches), and every read is a pure function of
 * (URL, the versions of the parts it was made from, "now" to the minute) — so a body rendered once serves every
 * identical request until one of those changes. Nothing personal is cached (requests with a key are not).
 */
export interface CachedResponse {
  /** Encoded once when cached: a string body would be measured and UTF-8-encoded again on every hit. */
  body: Buffer;
  headers: Record<string, string>;
  /** The body compressed, per content coding, made on the first request that accepts it. */
  encoded: Partial<Record<ContentCoding, Buffer>>;
  /** What the body shows and the versions it was made from (see registerCaching). */
  read: ReadStamp;
}

/**
 * The parts of the catalogue a response was made from — countries (`de`) or parts of one (`de:topic ai-ml`, see
 * ReadIndex.versionOf) — and whether it shows crowds (RSVP counts).
 */
export interface ReadDependencies {
  parts: readonly string[];
  attendance?: boolean;
}

export interface ReadStamp {
  dependencies: ReadDependencies;
  /** The versions of those parts and the minute, when the body was made. */
  stamp: string;
}

export const CONTENT_CODINGS = ['br', 'gzip'] as const;
export type ContentCoding = (typeof CONTENT_CODINGS)[number];
/** Bodies smaller than this are sent as they are (compression would save too little to pay for itself). */
export const COMPRESS_THRESHOLD = 1024;

/** How bodies are compressed, cached or not: the same bytes for the same body, under the same ETag. */
export const BROTLI_OPTIONS: BrotliOptions = {
  params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT },
};
export const GZIP_OPTIONS: ZlibOptions = { level: 6 };

/**
 * A cached body in the coding a client accepts (Accept-Encoding, negotiated as @fastify/compress does), compressed
 * once per entry rather than on every hit; undefined when it goes as it is.
 */
export function encodedBody(
  entry: CachedResponse,
  acceptEncoding: string | undefined,
): { coding: ContentCoding; body: Buffer } | undefined {
  if (!acceptEncoding || entry.body.length < COMPRESS_THRESHOLD) return undefined;
  const coding = negotiate(acceptEncoding.toLowerCase().replace(/\*|x-gzip/g, 'gzip'), [
    ...CONTENT_CODINGS,
  ]) as ContentCoding | null;
  if (!coding) return undefined;
  let body = entry.encoded[coding];
  if (!body) {
    body = coding === 'br' ? brotliCompressSync(entry.body, BROTLI_OPTIONS) : gzipSync(entry.body, GZIP_OPTIONS);
    entry.encoded[coding] = body;
  }
  return { coding, body };
}

export function createResponseCache(maxEntries = 2000, maxBytes = 32 * 1024 * 1024): LRUCache<string, CachedResponse> {
  return new LRUCache<string, CachedResponse>({
    max: maxEntries,
    maxSize: maxBytes,
    // One huge body must not flush everything else.
    maxEntrySize: maxBytes / 16,
    // The compressed copies are a fraction of the body; counted as one more body at most.
    sizeCalculation: (value) => Math.max(1, 2 * value.body.length),
  });
}
