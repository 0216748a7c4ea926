import compress from '@fastify/compress';
import etag from '@fastify/etag';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { LRUCache } from 'lru-cache';
import { SecondSight } from '../cache-admission.js';
import type { AppContext } from '../context.js';
import {
  type CachedResponse,
  COMPRESS_THRESHOLD,
  CONTENT_CODINGS,
  createResponseCache,
  encodedBody,
} from './response-cache.js';
import { pathOf } from './url-path.js';

/** How long shared caches and clients may reuse each kind of read (feeds short, so new events show soon). */
export const CACHE_SECONDS = { listing: 60, page: 300, feed: 300, docs: 3600 } as const;

/** Paths whose GET answers depend only on the URL, the read index and the minute. */
const CACHEABLE = /^\/(api\/events|api\/md|api\/calendar|(ch|de|at)(\.md|\/.*)?)?$/;
/** Headers that belong to one exchange, not to the body. */
const PER_EXCHANGE =
  /^(content-length|content-encoding|vary|date|connection|keep-alive|access-control-.*|retry-after|x-ratelimit-.*|ratelimit-.*|transfer-encoding)$/;

declare module 'fastify' {
  interface FastifyRequest {
    /** Set on a cacheable read the cache did not have: where its response goes, and for which generation. */
    responseCacheSlot?: { url: string; generation: number };
  }
}

function cacheControlFor(request: FastifyRequest, status: number): string {
  const path = pathOf(request.url);
  if (request.method !== 'GET' && request.method !== 'HEAD') return 'no-store';
  if (request.headers.authorization || status >= 400 || path === '/healthz') return 'private, no-store';
  if (path.startsWith('/docs') || path === '/api/openapi.json' || path.startsWith('/problems/')) {
    return `public, max-age=${CACHE_SECONDS.docs}`;
  }
  if (/\/events\/[^/]+$/.test(path)) return `public, max-age=${CACHE_SECONDS.page}`;
  return `public, max-age=${CACHE_SECONDS.listing}`;
}

/**
 * HTTP caching that real clients use, plus a server-side response cache:
 * - strong ETag on every body (If-None-Match → 304), Cache-Control suited to each output, br/gzip over 1 KiB;
 * - rendered read responses kept in a bounded LRU keyed by URL, for the current read-index version and minute
 *   (see response-cache.ts), from the second time a URL is asked for (see SecondSight).
 * Anything personal (a key was sent) or a write is `private, no-store` and never cached.
 */
export async function registerCaching(
  app: FastifyInstance,
  ctx: AppContext,
): Promise<LRUCache<string, CachedResponse>> {
  const cache = createResponseCache();
  // A body is kept from the second time its URL is asked for: one-off URLs would only push out the ones that recur.
  const admission = new SecondSight(8000);
  await app.register(etag);

  // Every cached body belongs to one read-index version and one minute; when either moves on, none of them can be
  // served again, so the cache is emptied then and keyed by URL alone.
  let indexVersion = -1;
  let minute = -1;
  let generation = 0;
  const currentGeneration = (): number => {
    const now = Math.floor(ctx.now().getTime() / 60_000);
    if (now !== minute || ctx.index.version !== indexVersion) {
      minute = now;
      indexVersion = ctx.index.version;
      generation++;
      cache.clear();
    }
    return generation;
  };

  // Looked up in preHandler, after rate limits and validation of the route have run. Callback-style hooks here and
  // below: they run on every read, and an async hook costs a promise and a microtask turn each time.
  app.addHook('preHandler', (request, reply, done) => {
    if ((request.method !== 'GET' && request.method !== 'HEAD') || request.headers.authorization) return done();
    const url = request.url;
    if (!CACHEABLE.test(pathOf(url))) return done();
    const generation = currentGeneration();
    const hit = cache.get(url);
    if (!hit) {
      if (admission.admit(url)) request.responseCacheSlot = { url, generation };
      return done();
    }
    reply.headers(hit.headers);
    const encoded = encodedBody(hit, request.headers['accept-encoding']);
    // Marked as encoded, so the compression plugin leaves it as it is.
    if (encoded) reply.header('Content-Encoding', encoded.coding).header('Vary', 'accept-encoding');
    reply.send(encoded ? encoded.body : hit.body);
  });

  app.addHook('onSend', (request, reply, payload, done) => {
    if (!reply.hasHeader('cache-control')) reply.header('Cache-Control', cacheControlFor(request, reply.statusCode));
    const slot = request.responseCacheSlot;
    // A body rendered before the index changed or the minute turned is sent, but not kept.
    if (
      slot &&
      reply.statusCode === 200 &&
      (typeof payload === 'string' || Buffer.isBuffer(payload)) &&
      slot.generation === currentGeneration()
    ) {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(reply.getHeaders())) {
        if (value !== undefined && !PER_EXCHANGE.test(name)) headers[name] = String(value);
      }
      cache.set(slot.url, { body: Buffer.from(payload), headers, encoded: {} });
    }
    done(null, payload);
  });

  await app.register(compress, { global: true, threshold: COMPRESS_THRESHOLD, encodings: [...CONTENT_CODINGS] });
  return cache;
}
