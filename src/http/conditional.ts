import type { FastifyInstance, FastifyReply, FastifyRequest, onSendHookHandler } from 'fastify';

/**
 * The ETag of a body in a content coding: the identity body's tag with `-<coding>` before its closing quote (as
 * Apache and nginx mark theirs), so that each coding's bytes have a strong tag of their own.
 */
export function etagInCoding(tag: string, coding: unknown): string {
  if (typeof coding !== 'string' || coding === '' || coding === 'identity' || !tag.endsWith('"')) return tag;
  return `${tag.slice(0, -1)}-${coding}"`;
}

/** The opaque tags an If-None-Match value lists (`W/` dropped: the weak comparison), or `*`. */
export function listedTags(value: string): readonly string[] | '*' {
  if (value.trim() === '*') return '*';
  // An opaque tag may hold a comma, never a quote: each quoted string is one tag.
  return [...value.matchAll(/(?:W\/)?"([^"]*)"/g)].map((match) => match[1] as string);
}

const opaque = (tag: string) => tag.replace(/^W\//, '');

/** IMF-fixdate, the obsolete RFC 850 date and asctime's (RFC 9110 §5.6.7); anything else is not an HTTP-date. */
const HTTP_DATE =
  /^(?:[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT|[A-Z][a-z]{5,8}, \d{2}-[A-Z][a-z]{2}-\d{2} \d{2}:\d{2}:\d{2} GMT|[A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d \d{2}:\d{2}:\d{2} \d{4})$/;

/** An HTTP-date's time (to the second, as the format holds), or undefined when the value is not one. */
export function httpDate(value: unknown): number | undefined {
  if (typeof value !== 'string' || !HTTP_DATE.test(value.trim())) return undefined;
  const asctime = /^[A-Z][a-z]{2} [A-Z][a-z]{2} /.test(value.trim());
  const time = Date.parse(asctime ? `${value.trim()} GMT` : value.trim());
  return Number.isNaN(time) ? undefined : time;
}

/**
 * Whether a GET or HEAD whose answer would be 200 with this ETag and Last-Modified is to be answered 304 (RFC 9110
 * §13.1.2, §13.1.3): If-None-Match by weak comparison, `*` matching the representation there is; without it,
 * If-Modified-Since when the representation has not changed since (an invalid date is ignored).
 */
export function notModified(request: FastifyRequest, etag: unknown, lastModified: unknown): boolean {
  const ifNoneMatch = request.headers['if-none-match'];
  if (ifNoneMatch !== undefined) {
    const tags = listedTags(ifNoneMatch);
    if (tags === '*') return true;
    if (typeof etag !== 'string') return false;
    const current = opaque(etag).slice(1, -1);
    return tags.includes(current);
  }
  const since = httpDate(request.headers['if-modified-since']);
  const modified = httpDate(lastModified);
  return since !== undefined && modified !== undefined && modified <= since;
}

/** Adds Accept-Encoding to the reply's Vary, beside what the route itself varies on. */
function varyOnEncoding(reply: FastifyReply): void {
  const vary = reply.getHeader('vary');
  const names = Array.isArray(vary) ? vary.join(', ') : vary === undefined ? '' : String(vary);
  if (/(^|,)\s*(accept-encoding|\*)\s*(,|$)/i.test(names)) return;
  reply.header('Vary', names ? `${names}, Accept-Encoding` : 'Accept-Encoding');
}

/**
 * The one place a read is answered 304, for a body made now and one from the response cache alike: it runs after
 * compression has chosen the coding, so the ETag compared is the one of the bytes this request would get.
 */
const answerConditionally: onSendHookHandler = (request, reply, payload, done) => {
  const status = reply.statusCode;
  if ((request.method !== 'GET' && request.method !== 'HEAD') || status < 200 || status >= 300) {
    return done(null, payload);
  }
  // Any read answer may come compressed or not, depending on Accept-Encoding: caches must keep them apart.
  varyOnEncoding(reply);
  const base = reply.getHeader('etag');
  const etag = typeof base === 'string' ? etagInCoding(base, reply.getHeader('content-encoding')) : undefined;
  if (etag) reply.header('ETag', etag);
  if (status !== 200 || !notModified(request, etag, reply.getHeader('last-modified'))) return done(null, payload);
  // A compressed stream under way is not needed.
  (payload as { destroy?: () => void } | null)?.destroy?.();
  reply.code(304);
  for (const name of ['content-encoding', 'content-length', 'content-type']) reply.removeHeader(name);
  done(null, null);
};

/**
 * Hooks every route (added after this) with the conditional answer, after the hooks the route already has: the
 * compression plugin's comes before it, when registered first.
 */
export function registerConditionalRequests(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const own = route.onSend;
    route.onSend = [...(own === undefined ? [] : Array.isArray(own) ? own : [own]), answerConditionally];
  });
}
