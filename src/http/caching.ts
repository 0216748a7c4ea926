import { hash } from 'node:crypto';
import compress from '@fastify/compress';
import etag from '@fastify/etag';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { LRUCache } from 'lru-cache';
import type { ServingContext } from '../context.js';
import type { ReadRecord } from '../query/read-index.js';
import { SecondSight } from '../runtime/second-sight.js';
import { registerConditionalRequests } from './conditional.js';
import {
  BROTLI_OPTIONS,
  type CachedResponse,
  COMPRESS_THRESHOLD,
  CONTENT_CODINGS,
  createResponseCache,
  encodedBody,
  GZIP_OPTIONS,
  type ReadDependencies,
  type ReadStamp,
} from './response-cache.js';
import { CACHE_SECONDS, classOf } from './route-class.js';

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
    /** Set on a cacheable read the cache did not have: where its body is kept, and what the read saw. */
    cacheable?: { key: string; began: ReadBegan; record: ReadRecord; release: () => void };
  }
}

/**
 * The minute, the time of the catalogue's latest change and the generation of what the service remembers of its
 * sources (the freshness line, answers' coverage) when a read began: what its body can at most have seen.
 */
interface ReadBegan {
  minute: number;
  sequence: number;
  attendance: number;
  remembered: number;
}

const minuteOf = (ctx: ServingContext) => Math.floor(ctx.now().getTime() / 60_000);

function readBeganNow(ctx: ServingContext): ReadBegan {
  return {
    minute: minuteOf(ctx),
    sequence: ctx.index.sequence,
    attendance: ctx.index.attendanceVersion,
    remembered: ctx.remembered.generation,
  };
}

/**
 * A body's stamp: the minute and the sources' state it was made in (a sync's run changes what the footer and a
 * coverage notice say), the versions of the parts it was made from, and of the crowds if it shows them.
 */
function stampOf(
  read: ReadDependencies,
  at: { minute: number; remembered: number },
  versionOf: (part: string) => number,
  attendance: number,
) {
  let stamp = `${at.minute}|s${at.remembered}`;
  for (const part of read.parts) stamp += `|${part}${versionOf(part)}`;
  if (read.attendance) stamp += `|a${attendance}`;
  return stamp;
}

/** Whether a cached body may be served now: nothing it shows changed, and the minute is the same. */
const current = (ctx: ServingContext, read: ReadStamp) =>
  stampOf(
    read.dependencies,
    { minute: minuteOf(ctx), remembered: ctx.remembered.generation },
    (c) => ctx.index.versionOf(c),
    ctx.index.attendanceVersion,
  ) === read.stamp;

/** What a route's declaration (route-class.ts) lets caches do with its answer, unless the route said itself. */
function cacheControlFor(request: FastifyRequest, status: number): string {
  if (request.method !== 'GET' && request.method !== 'HEAD') return 'no-store';
  const routeClass = classOf(request);
  if (request.headers.authorization || status >= 400 || routeClass === 'operations' || routeClass === 'personal') {
    return 'private, no-store';
  }
  return `public, max-age=${CACHE_SECONDS[request.routeOptions.config?.maxAge ?? 'listing']}`;
}

/** Answers with a kept body, compressed in the coding the client accepts. */
function sendCached(request: FastifyRequest, reply: FastifyReply, hit: CachedResponse): void {
  reply.headers(hit.headers);
  const encoded = encodedBody(hit, request.headers['accept-encoding']);
  // Marked as encoded, so the compression plugin leaves it as it is (Vary and the coding's ETag: see conditional.ts).
  if (encoded) reply.header('Content-Encoding', encoded.coding);
  reply.send(encoded ? encoded.body : hit.body);
}

/**
 * A cacheable read's kept body when it is current; else, when the same read is being made, its body once made; else
 * the read goes on to be made, noting what it shows.
 */
function lookUp(
  ctx: ServingContext,
  cache: LRUCache<string, CachedResponse>,
  making: Map<string, Promise<void>>,
  request: FastifyRequest,
  reply: FastifyReply,
  done: () => void,
) {
  if ((request.method !== 'GET' && request.method !== 'HEAD') || request.headers.authorization) return done();
  if (classOf(request) !== 'cacheable') return done();
  const variant = request.routeOptions.config?.negotiated?.variant(request);
  const key = variant === undefined ? request.url : `${request.url}\n${variant}`;
  const serveOrMake = (waited: boolean) => {
    const hit = cache.get(key);
    if (hit && current(ctx, hit.read)) {
      ctx.metrics.cache.inc({ result: 'hit' });
      return sendCached(request, reply, hit);
    }
    const other = making.get(key);
    if (other && !waited) return void other.then(() => serveOrMake(true));
    ctx.metrics.cache.inc({ result: 'miss' });
    let release = () => {};
    if (!other) {
      const made = new Promise<void>((resolve) => {
        release = () => {
          if (making.get(key) === made) making.delete(key);
          resolve();
        };
      });
      making.set(key, made);
      // Whatever becomes of this request (sent, failed, aborted), those waiting go on.
      reply.raw.once('close', release);
    }
    // The read notes the clock's time when it began: a write landing while its body is made leaves the body out of
    // the cache rather than kept as current.
    const record: ReadRecord = { parts: new Set(), attendance: false };
    request.cacheable = { key, began: readBeganNow(ctx), record, release };
    ctx.index.recordReads(record, done);
  };
  serveOrMake(false);
}

/**
 * HTTP caching that real clients use, plus a server-side response cache:
 * - a strong ETag on every body, one per content coding, and 304 as RFC 9110 says (see conditional.ts),
 *   Cache-Control suited to each output, br/gzip over 1 KiB;
 * - rendered read responses kept in a bounded LRU keyed by URL, each stamped with the minute and the versions of the
 *   countries it shows, as the read index noted them while the body was made (see ReadIndex.recordReads). A
 *   write to a country makes stale exactly the bodies that show it.
 * Anything personal (a key was sent) or a write is `private, no-store` and never cached.
 */
export async function registerCaching(
  app: FastifyInstance,
  ctx: ServingContext,
): Promise<LRUCache<string, CachedResponse>> {
  const cache = createResponseCache();
  // A body is kept once its URL is asked for a second time (or it was kept before): a stream of one-off prompts
  // would otherwise push out what is polled again and again, and churn the heap.
  const askedBefore = new SecondSight(cache.max);
  // Identical reads arriving while the first is made wait for its body rather than each making their own: after a
  // write, every client polling a popular URL would otherwise rank it again at once.
  const making = new Map<string, Promise<void>>();
  // A string body goes on as bytes, encoded once here: hashed for its ETag, kept in the cache and written as is.
  app.addHook('onSend', (_request, _reply, payload, done) => {
    done(null, typeof payload === 'string' ? Buffer.from(payload) : payload);
  });
  // The identity body's tag. The plugin's default hashes with a Hash object per body; the one-shot digest gives the
  // same ETag. Its own 304 compares one tag exactly: conditional.ts answers instead, once the coding is chosen.
  await app.register(etag, { hashFn: (payload) => hash('sha1', payload, 'base64'), replyWith304: false });

  // Looked up in preHandler, after rate limits and validation of the route have run.
  app.addHook('preHandler', (request, reply, done) => lookUp(ctx, cache, making, request, reply, done));

  app.addHook('onSend', (request, reply, payload, done) => {
    if (!reply.hasHeader('cache-control')) reply.header('Cache-Control', cacheControlFor(request, reply.statusCode));
    const read = request.cacheable;
    // Streams are not kept; nor a body that shows no answer of the index (it noted no part).
    if (read && read.record.parts.size > 0 && reply.statusCode === 200 && Buffer.isBuffer(payload)) {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(reply.getHeaders())) {
        if (value !== undefined && !PER_EXCHANGE.test(name)) headers[name] = String(value);
      }
      const dependencies = { parts: [...read.record.parts], attendance: read.record.attendance };
      const { sequence, attendance, remembered } = read.began;
      // A write to a part it shows (or a sync's run) that landed while the body was made leaves it stale: not kept.
      const changed =
        dependencies.parts.some((part) => ctx.index.versionOf(part) > sequence) ||
        (dependencies.attendance && ctx.index.attendanceVersion !== attendance) ||
        ctx.remembered.generation !== remembered;
      const stamp = stampOf(dependencies, read.began, (part) => ctx.index.versionOf(part), attendance);
      if (!changed && (cache.has(read.key) || askedBefore.admit(read.key)))
        cache.set(read.key, { body: payload, headers, encoded: {}, read: { dependencies, stamp } });
    }
    read?.release();
    done(null, payload);
  });

  // Compressed as the cache compresses its bodies, so that a coding's ETag names the same bytes either way.
  await app.register(compress, {
    global: true,
    threshold: COMPRESS_THRESHOLD,
    encodings: [...CONTENT_CODINGS],
    brotliOptions: BROTLI_OPTIONS,
    zlibOptions: GZIP_OPTIONS,
  });
  registerConditionalRequests(app);
  return cache;
}
