import type { FastifyRequest } from 'fastify';

/**
 * What a route is, declared in its options (`config: { class }`): rate limits, load shedding and caching read this,
 * never the path. Undeclared, a GET or HEAD is a `read` and anything else a `write`.
 * - `cacheable`: a read whose answer depends only on the URL, the read index and the minute (and a negotiated
 *   header): kept by the response cache, and public for shared caches (`maxAge`: how long, default a listing's);
 * - `read`: answered afresh each time, public for a minute (`maxAge` as above);
 * - `personal`: someone's own answer (an RSVP, /me, a consent page): never kept anywhere (`private, no-store`);
 * - `write`: changes something: limited per key (or address without one), never shed under load;
 * - `operations`: /healthz, /readyz, /metrics: never limited, shed or cached.
 */
export type RouteClass = 'cacheable' | 'read' | 'personal' | 'write' | 'operations';

/**
 * How long shared caches and clients may reuse each kind of read: listings short, so new events show soon; a
 * calendar subscription as long as a page (its clients poll hourly, REFRESH-INTERVAL); an Atom feed 15 minutes.
 */
export const CACHE_SECONDS = { listing: 60, page: 300, calendar: 300, atom: 900, docs: 3600 } as const;

declare module 'fastify' {
  interface FastifyContextConfig {
    class?: RouteClass;
    /** For a cacheable or read route: which of CACHE_SECONDS its public answers may be reused for. */
    maxAge?: keyof typeof CACHE_SECONDS;
  }
}

/** The class of the route a request matched (a path no route has is a read, or a write for other methods). */
export function classOf(request: FastifyRequest): RouteClass {
  const declared = request.routeOptions?.config?.class;
  if (declared) return declared;
  return request.method === 'GET' || request.method === 'HEAD' ? 'read' : 'write';
}

/** Route options of a class: `app.get(url, declared('cacheable'), handler)`. */
export const declared = (routeClass: RouteClass, maxAge?: keyof typeof CACHE_SECONDS) => ({
  config: { class: routeClass, ...(maxAge ? { maxAge } : {}) },
});
