import { hash } from 'node:crypto';
import compress from '@fastify/compress';
import etag from '@fastify/etag';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { LRUCache } from 'lru-cache';
import type { ServingContext } from '../context.js';
import { COUNTRIES, type Country } from '../places/countries.js';
import type { SearchResult } from '../query/engine.js';
import { SecondSight } from '../runtime/cache-admission.js';
import {
  type CachedResponse,
  COMPRESS_THRESHOLD,
  CONTENT_CODINGS,
  createResponseCache,
  encodedBody,
  type ReadDependencies,
  type ReadStamp,
} from './response-cache.js';
import { pathOf } from './url-path.js';

/** How long shared caches and clients may reuse each kind of read (feeds short, so new events show soon). */
export const CACHE_SECONDS = { listing: 60, page: 300, feed: 300, docs: 3600 } as const;

/** Paths whose GET answers depend only on the URL, the read index and the minute. */
const CACHEABLE = /^\/(api\/events|api\/md|api\/calendar|(ch|de|at)(\.md|\/.*)?)?$/;
/** Headers that belong to one exchange, not to the body (a route's own Vary is kept; see `negotiated`). */
const PER_EXCHANGE =
  /^(content-length|content-encoding|date|connection|keep-alive|access-control-.*|retry-after|x-ratelimit-.*|ratelimit-.*|transfer-encoding)$/;

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * For a route whose response may depend on a request header (the pages on Accept-Language): the variant a
     * request gets, or undefined when its URL alone decides. Cached bodies are kept per URL and variant; the route
     * itself says `Vary: <header>`, which the cache keeps with the body.
     */
    negotiated?: { header: string; variant: (request: FastifyRequest) => string | undefined };
  }
  interface FastifyRequest {
    /** Set on a cacheable read the cache did not have: the URL its response is kept under. */
    responseCacheSlot?: string;
    /** What the body of a read depends on, declared by its handler (see `dependsOn`); undeclared bodies are not kept. */
    readsFrom?: ReadStamp;
    /** Set on a cacheable read the cache did not have: the catalogue's versions as it began (see `dependsOn`). */
    readBegan?: ReadBegan;
    /** Set on the read other reads of its URL wait for: lets them go on (see `underWay` in registerCaching). */
    settleUnderWay?: (() => void) | undefined;
  }
}

/** The minute and the catalogue's versions when a read began: what its body can at most have seen. */
interface ReadBegan {
  minute: number;
  versions: Readonly<Record<Country, number>>;
  attendance: number;
}

function readBeganNow(ctx: ServingContext): ReadBegan {
  const versions = Object.fromEntries(COUNTRIES.map((c) => [c, ctx.index.versionOf(c)])) as Record<Country, number>;
  return { minute: minuteOf(ctx), versions, attendance: ctx.index.attendanceVersion };
}

const minuteOf = (ctx: ServingContext) => Math.floor(ctx.now().getTime() / 60_000);

function stampOf(dependencies: ReadDependencies, minute: number, versionOf: (c: Country) => number, a: number) {
  let stamp = String(minute);
  // A watched result says itself whether its country's changes left it as it was.
  if (!dependencies.standing) for (const country of dependencies.countries) stamp += `|${country}${versionOf(country)}`;
  if (dependencies.attendance) stamp += `|a${a}`;
  return stamp;
}

/** The stamp a cached body must carry to be served now. */
const currentStamp = (ctx: ServingContext, dependencies: ReadDependencies) =>
  stampOf(dependencies, minuteOf(ctx), (c) => ctx.index.versionOf(c), ctx.index.attendanceVersion);

/** Whether a cached body may be served now. */
const current = (ctx: ServingContext, read: ReadStamp) =>
  currentStamp(ctx, read.dependencies) === read.stamp && (read.dependencies.standing?.holds() ?? true);

/**
 * Declares what a read's body depends on, once it knows (the country may come from the prompt): the server keeps the
 * body only with this declaration, and serves it again only while those countries (and crowds, if shown) are
 * unchanged and the minute is the same. A write in one country leaves the cached answers about the others in place;
 * a body made from a watched search result (`standing`) stays in place also through the changes to its own country
 * that cannot alter that result.
 * The body is stamped with the versions from when the read began, never later ones: a write that lands while the
 * read waits for its turn (or for the database) makes the body stale at once rather than cached as current.
 */
export function dependsOn(request: FastifyRequest, ctx: ServingContext, dependencies: ReadDependencies): void {
  const began = request.readBegan ?? readBeganNow(ctx);
  // A watched result is watched from when it was ranked: the body shows what was current then, whatever changed
  // while the read waited for its turn. A result whose watch ended already goes by the versions as above.
  if (dependencies.standing && !dependencies.standing.holds()) dependencies = { ...dependencies, standing: undefined };
  request.readsFrom = {
    dependencies,
    stamp: stampOf(dependencies, began.minute, (c) => began.versions[c], began.attendance),
  };
}

/**
 * What a body made from one search result shows: the countries it read (those searched, and the others when it looked
 * there for near misses), and the result's watch while it has one.
 */
export function resultDependencies(result: Pick<SearchResult, 'consulted' | 'watch'>): ReadDependencies {
  return { countries: result.consulted, standing: result.watch };
}

/** Operational endpoints: their answers are about this moment and this process. */
const OPERATIONS = new Set(['/healthz', '/readyz', '/metrics']);

function cacheControlFor(request: FastifyRequest, status: number): string {
  const path = pathOf(request.url);
  if (request.method !== 'GET' && request.method !== 'HEAD') return 'no-store';
  if (request.headers.authorization || status >= 400 || OPERATIONS.has(path)) return 'private, no-store';
  if (path.startsWith('/docs') || path === '/api/openapi.json' || path.startsWith('/problems/')) {
    return `public, max-age=${CACHE_SECONDS.docs}`;
  }
  if (/\/events\/[^/]+$/.test(path)) return `public, max-age=${CACHE_SECONDS.page}`;
  return `public, max-age=${CACHE_SECONDS.listing}`;
}

/** Answers with a kept body, compressed in the coding the client accepts. */
function sendCached(request: FastifyRequest, reply: FastifyReply, hit: CachedResponse): void {
  reply.headers(hit.headers);
  const encoded = encodedBody(hit, request.headers['accept-encoding']);
  // Marked as encoded, so the compression plugin leaves it as it is.
  if (encoded) {
    const vary = reply.getHeader('vary');
    reply
      .header('Content-Encoding', encoded.coding)
      .header('Vary', vary ? `${vary}, accept-encoding` : 'accept-encoding');
  }
  reply.send(encoded ? encoded.body : hit.body);
}

/**
 * HTTP caching that real clients use, plus a server-side response cache:
 * - strong ETag on every body (If-None-Match → 304), Cache-Control suited to each output, br/gzip over 1 KiB;
 * - rendered read responses kept in a bounded LRU keyed by URL, each with the versions of what it shows (see
 *   `dependsOn`) and the minute, from the second time a URL is asked for (see SecondSight); while one read makes
 *   a body to keep, other reads of its URL wait for it rather than make it too.
 * Anything personal (a key was sent) or a write is `private, no-store` and never cached.
 */
export async function registerCaching(
  app: FastifyInstance,
  ctx: ServingContext,
): Promise<LRUCache<string, CachedResponse>> {
  const cache = createResponseCache();
  // A body is kept from the second time its URL is asked for: one-off URLs would only push out the ones that recur.
  const admission = new SecondSight(8000);
  // A body rendered as a string goes on as the bytes it is sent as, encoded once here: hashed for its ETag, kept in
  // the cache and written to the socket as one Buffer, outside V8's heap. Passed on as a string (tens of KB of JSON
  // built by concatenation), it is flattened for the hash and held until the socket has written it, long enough to
  // outlive the young generation: each such read left a copy to the full collections that pause every request.
  app.addHook('onSend', (_request, _reply, payload, done) => {
    done(null, typeof payload === 'string' ? Buffer.from(payload) : payload);
  });
  // The plugin's default hashes with a Hash object per body; the one-shot digest gives the same ETag.
  await app.register(etag, { hashFn: (payload) => hash('sha1', payload, 'base64') });

  // Looked up in preHandler, after rate limits and validation of the route have run. Callback-style hooks here and
  // below: they run on every read, and an async hook costs a promise and a microtask turn each time.
  /** Reads under way that will keep their body, by cache key; settled once the body is kept (or will not be). */
  const underWay = new Map<string, Promise<void>>();
  const fresh = (url: string) => {
    const hit = cache.get(url);
    return hit && current(ctx, hit.read) ? hit : undefined;
  };
  const keepAs = (request: FastifyRequest, url: string) => {
    request.responseCacheSlot = url;
    request.readBegan = readBeganNow(ctx);
  };

  // Looked up in preHandler, after rate limits and validation of the route have run. Callback-style hooks here and
  // below: they run on every read, and an async hook costs a promise and a microtask turn each time.
  app.addHook('preHandler', (request, reply, done) => {
    if ((request.method !== 'GET' && request.method !== 'HEAD') || request.headers.authorization) return done();
    if (!CACHEABLE.test(pathOf(request.url))) return done();
    const variant = request.routeOptions.config?.negotiated?.variant(request);
    const url = variant === undefined ? request.url : `${request.url}\n${variant}`;
    const hit = fresh(url);
    if (hit) {
      ctx.metrics.cache.inc({ result: 'hit' });
      return sendCached(request, reply, hit);
    }
    const leader = underWay.get(url);
    if (leader) {
      // After a write, the first read of a URL makes its body again and the reads of it that arrive meanwhile take
      // that body, instead of each ranking and rendering the same answer (the reads wait for their turn to rank).
      leader.then(() => {
        const made = fresh(url);
        ctx.metrics.cache.inc({ result: made ? 'hit' : 'miss' });
        if (made) return sendCached(request, reply, made);
        keepAs(request, url);
        done();
      });
      return;
    }
    ctx.metrics.cache.inc({ result: 'miss' });
    if (admission.admit(url)) {
      keepAs(request, url);
      let settle = () => {};
      underWay.set(url, new Promise<void>((resolve) => (settle = resolve)));
      request.settleUnderWay = () => {
        underWay.delete(url);
        settle();
      };
    }
    return done();
  });
  // Whatever becomes of the leading read (kept, an error, the client gone), the reads waiting for it go on.
  const settle = (request: FastifyRequest) => {
    request.settleUnderWay?.();
    request.settleUnderWay = undefined;
  };
  app.addHook('onResponse', (request, _reply, done) => {
    settle(request);
    done();
  });
  app.addHook('onRequestAbort', (request, done) => {
    settle(request);
    done();
  });

  app.addHook('onSend', (request, reply, payload, done) => {
    if (!reply.hasHeader('cache-control')) reply.header('Cache-Control', cacheControlFor(request, reply.statusCode));
    const slot = request.responseCacheSlot;
    const read = request.readsFrom;
    // A body is kept with the versions it was made from; a later lookup serves it only while they are current.
    // String bodies arrive here as the Buffer the first onSend hook made of them (see above); streams are not kept.
    if (slot && read && reply.statusCode === 200 && Buffer.isBuffer(payload)) {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(reply.getHeaders())) {
        if (value !== undefined && !PER_EXCHANGE.test(name)) headers[name] = String(value);
      }
      cache.set(slot, { body: payload, headers, encoded: {}, read });
    }
    request.settleUnderWay?.();
    request.settleUnderWay = undefined;
    done(null, payload);
  });

  await app.register(compress, { global: true, threshold: COMPRESS_THRESHOLD, encodings: [...CONTENT_CODINGS] });
  return cache;
}
