import { isUtf8 } from 'node:buffer';
import type { Socket } from 'node:net';
import cors from '@fastify/cors';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  LogController,
} from 'fastify';
import { ServiceError } from '../catalogue/errors.js';
import type { ServingContext } from '../context.js';
import { ADMISSION, registerAdmission } from './admission.js';
import { refuseKeyInQuery } from './authenticate.js';
import { registerCaching } from './caching.js';
import {
  clientErrorHandler,
  honourExpectContinue,
  MAX_HEADER_BYTES,
  MAX_PARAM_LENGTH,
  registerRateLimits,
} from './limits.js';
import { lingerOnClose } from './linger.js';
import { createOAuthProvider } from './oauth/provider.js';
import { rawProblemResponse, sendProblem, toServiceError } from './problem.js';
import { registerAddRoutes } from './routes/add.js';
import { registerAdminRoutes } from './routes/admin.js';
import { registerCalendarCheckRoute } from './routes/admin-calendars.js';
import { registerAdminPageRoutes } from './routes/admin-page.js';
import { registerCalendarRoutes } from './routes/calendar.js';
import { registerCalendarLinkRoutes } from './routes/calendars.js';
import { registerDocsRoutes } from './routes/docs.js';
import { registerEmbedRoutes } from './routes/embed.js';
import { registerEventReadRoutes } from './routes/events.read.js';
import { registerEventWriteRoutes } from './routes/events.write.js';
import { registerFeedRoutes } from './routes/feed.js';
import { registerGeoRoutes } from './routes/geo.js';
import { registerHealthRoutes } from './routes/health.js';
import { registerMarkdownRoutes } from './routes/markdown.js';
import { registerMcpRoutes } from './routes/mcp.js';
import { registerMeRoutes } from './routes/me.js';
import { registerOAuthRoutes } from './routes/oauth.js';
import { registerPageRoutes } from './routes/pages.js';
import { registerProposalAdminRoutes, registerProposalRoutes } from './routes/proposals.js';
import { registerRsvpRoutes } from './routes/rsvp.js';
import { registerRsvpFormRoutes } from './routes/rsvp-form.js';
import { registerSourcesRoutes } from './routes/sources.js';
import { registerWebhookRoutes } from './routes/webhooks.js';
import { pathOf } from './url-path.js';

export const BODY_LIMIT = 64 * 1024;
/** The methods routes are declared with (OPTIONS answers every path, for CORS preflights). */
const ROUTE_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE'] as const;

/** Logs the path but never a secret: query strings are dropped from request logs. */
function requestSerializer(request: { method: string; url: string; ip?: string; id?: string }) {
  return { method: request.method, path: pathOf(request.url), ip: request.ip, id: request.id };
}

export async function buildApp(ctx: ServingContext): Promise<FastifyInstance> {
  const app = createServer(ctx);
  acceptJsonBodiesOnly(app);

  // A route that takes larger bodies says so in its options (`bodyLimit`); `Expect: 100-continue` is answered before
  // routing, so the limits are read off the routes as they are added.
  const bodyLimits = new Map<string, number>();
  app.addHook('onRoute', (route) => {
    if (route.bodyLimit !== undefined) bodyLimits.set(route.url, route.bodyLimit);
  });
  honourExpectContinue(app.server, ctx.config.baseUrl, (path) => bodyLimits.get(path) ?? BODY_LIMIT);

  // CONNECT (a proxy's method) never reaches a route: Node would drop the connection without a word.
  app.server.on('connect', (_request: unknown, socket: Socket) => {
    const error = new ServiceError('method-not-allowed', 'This service is not a proxy: it does not take CONNECT.');
    socket.end(rawProblemResponse(ctx.config.baseUrl, error, [`Allow: ${[...ROUTE_METHODS, 'OPTIONS'].join(', ')}`]));
    // The client should close after the answer; a peer that does not gets its socket destroyed.
    setTimeout(() => socket.destroy(), 2000).unref();
  });

  // Beyond this many open connections, new ones are closed as they arrive: a quick refusal its client can take
  // elsewhere, rather than a socket the process may lack a file descriptor for.
  app.server.maxConnections = ctx.config.maxConnections;

  // Before the CORS plugin's hook, which takes every OPTIONS for a preflight.
  answerOptions(app, ctx.config.baseUrl);
  // Reading is keyless and CORS-open; writes authenticate with a bearer header (not cookies), so '*' is safe too.
  await app.register(cors, {
    origin: '*',
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS'],
    allowedHeaders: [
      'Authorization',
      'Content-Type',
      'If-None-Match',
      'If-Modified-Since',
      'Mcp-Session-Id',
      'Mcp-Protocol-Version',
    ],
    exposedHeaders: ['ETag', 'Last-Modified', 'Location', 'WWW-Authenticate', 'Mcp-Session-Id', 'Retry-After', 'Allow'],
    maxAge: 86400,
  });

  // Strong ETags on every response body, one per coding; conditional reads answered 304 (calendar clients, crawlers).
  await registerCaching(app, ctx);

  // Per-key write and per-address read limits; before the routes, which it hooks as they are added.
  const rateLimitUnknownPaths = await registerRateLimits(app, ctx.config);
  // Reads take turns of the event loop; past a bounded queue or wait they are refused (503 with Retry-After).
  registerAdmission(app, ADMISSION);

  registerRequestHooks(app, ctx);
  registerProblemHandlers(app, ctx, rateLimitUnknownPaths);
  await registerRoutes(app, ctx);
  return app;
}

function createServer(ctx: ServingContext): FastifyInstance {
  const { timeouts } = ctx.config;
  const http = {
    maxHeaderSize: MAX_HEADER_BYTES,
    requestTimeout: timeouts.requestMs,
    headersTimeout: Math.min(timeouts.requestMs, 10_000),
    connectionsCheckingInterval: Math.max(250, Math.min(5_000, Math.floor(timeouts.requestMs / 4))),
  };
  return Fastify({
    loggerInstance: ctx.logger.child({}, { serializers: { req: requestSerializer } }) as FastifyBaseLogger,
    // One line per request, written when it completes (see the onResponse hook), rather than two.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: BODY_LIMIT,
    trustProxy: ctx.config.trustProxy,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PARAM_LENGTH },
    // Slow or stuck clients: the whole request must arrive within requestMs (headers within at most 10 s of it),
    // idle keep-alive sockets close after keepAliveMs, silent ones after connectionMs. Node checks the request
    // deadlines every connectionsCheckingInterval, so that interval stays a fraction of the timeout.
    requestTimeout: timeouts.requestMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    connectionTimeout: timeouts.connectionMs,
    http,
    clientErrorHandler: clientErrorHandler(ctx.config.baseUrl),
    // Errors of the router (a malformed %-escape, an overlong path parameter) as problems like everything else.
    frameworkErrors: (error, request, reply) => {
      const path = pathOf(request.url);
      const problem =
        error.code === 'FST_ERR_MAX_PARAM_LENGTH'
          ? new ServiceError('not-found', 'Nothing here has a name that long.')
          : toServiceError(error, request);
      // Answered before the hooks that add these to every other answer: a browser on another origin may read it too.
      reply.header('Access-Control-Allow-Origin', '*').header('Cache-Control', 'private, no-store');
      sendProblem(reply, ctx.config.baseUrl, problem, path);
    },
  });
}

/** The charset a Content-Type names (lower case, unquoted), if any. */
const charsetOf = (type: string | undefined) => type?.match(/;\s*charset\s*=\s*("?)([^";\s]*)\1/i)?.[2]?.toLowerCase();

/**
 * Bodies are JSON, read as bytes: invalid UTF-8 is refused (400) rather than decoded into U+FFFD and stored, and
 * no other type is taken — a JSON body sent as text/plain, or declared in a charset other than UTF-8, is a 415, not
 * text read as something it is not.
 */
function acceptJsonBodiesOnly(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    const charset = charsetOf(request.headers['content-type']);
    if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
      const detail = `The body is declared as ${charset}; JSON is read as UTF-8 only: send it as UTF-8, with charset=utf-8 or none.`;
      return done(new ServiceError('unsupported-media-type', detail), undefined);
    }
    if (!isUtf8(body as Buffer)) {
      return done(new ServiceError('malformed-json', 'The body is not valid UTF-8, which JSON must be.'), undefined);
    }
    parseJson(request, (body as Buffer).toString('utf8'), done);
  });
}

/**
 * A request with more than one Host is refused (RFC 9112 §3.2): Node keeps the first and drops the rest, and a proxy
 * in front may have routed it by another. The connection closes after the answer, as after any message in doubt.
 */
function refuseSecondHost(request: FastifyRequest, reply: FastifyReply): void {
  const raw = request.raw.rawHeaders;
  let hosts = 0;
  for (let i = 0; i < raw.length; i += 2) if (raw[i]?.toLowerCase() === 'host') hosts++;
  if (hosts <= 1) return;
  reply.header('Connection', 'close');
  throw new ServiceError('bad-request', `The request has ${hosts} Host headers; HTTP/1.1 allows exactly one.`);
}

/** Refuses keys in the query string on arrival; counts, times and logs each request as it completes. */
function registerRequestHooks(app: FastifyInstance, ctx: ServingContext): void {
  app.addHook('onRequest', (request, reply, done) => {
    try {
      refuseSecondHost(request, reply);
      refuseKeyInQuery(request);
    } catch (error) {
      return done(error as Error);
    }
    done();
  });
  // The access line holds method, path (never the query), address, id, status and time: nothing a redaction path
  // could match, so the line written on every request skips redaction.
  const accessLog = ctx.logger.child({}, { redact: [] });
  const record = (request: FastifyRequest, status: number, elapsedMs?: number) => {
    const route = request.routeOptions.url ?? 'unmatched';
    ctx.metrics.requests.inc({ method: request.method, route, status });
    const line = { reqId: request.id, method: request.method, path: pathOf(request.url), ip: request.ip, status };
    if (elapsedMs === undefined) return accessLog.info(line, 'request');
    ctx.metrics.latency.observe({ method: request.method, route }, elapsedMs / 1000);
    accessLog.info({ ...line, ms: Math.round(elapsedMs * 100) / 100 }, 'request');
  };
  app.addHook('onResponse', (request, reply, done) => {
    record(request, reply.statusCode, reply.elapsedTime);
    done();
  });
  // A client that left before its answer gets none and Fastify runs no onResponse: it is counted and logged here, as
  // 499 (nginx's "client closed request"), with no time, as nothing was answered.
  app.addHook('onRequestAbort', (request, done) => {
    record(request, CLIENT_CLOSED);
    done();
  });
}

/** The status counted and logged for a request whose client closed the connection before its answer. */
const CLIENT_CLOSED = 499;

/** The methods a path takes, as an Allow header says them, or undefined when it takes none. */
function allowedAt(app: FastifyInstance, path: string): string | undefined {
  const allowed = ROUTE_METHODS.filter((method) => app.findRoute({ method, url: path }) !== null);
  return allowed.length > 0 ? [...allowed, 'OPTIONS'].join(', ') : undefined;
}

/**
 * An OPTIONS that is not a CORS preflight asks what a path takes (RFC 9110 §9.3.7): 204 with Allow, or the 404
 * problem, rather than the CORS plugin's plain-text refusal of a preflight without its headers.
 */
function answerOptions(app: FastifyInstance, baseUrl: string): void {
  app.addHook('onRequest', (request, reply, done) => {
    if (request.method !== 'OPTIONS' || request.headers['access-control-request-method'] !== undefined) return done();
    const path = pathOf(request.url);
    const methods = allowedAt(app, path);
    // Answered here: the CORS plugin's route, which this request matched, keeps the framework's own error handler.
    if (!methods)
      return sendProblem(reply, baseUrl, new ServiceError('not-found', `Nothing at OPTIONS ${path}.`), path);
    reply.header('Allow', methods).code(204).send();
  });
}

/** Errors and unknown paths answer as problem documents; unknown paths are rate-limited like reads. */
function registerProblemHandlers(
  app: FastifyInstance,
  ctx: ServingContext,
  rateLimitUnknownPaths: Awaited<ReturnType<typeof registerRateLimits>>,
): void {
  app.setErrorHandler((error, request, reply) => {
    // A body refused before it was read (the framework closes the connection after it): its client must be able to
    // read the answer while it still sends.
    if (reply.getHeader('connection') === 'close' && !request.raw.complete) lingerOnClose(request.raw.socket);
    sendProblem(reply, ctx.config.baseUrl, toServiceError(error, request), pathOf(request.url));
  });
  app.setNotFoundHandler(rateLimitUnknownPaths ? { preHandler: rateLimitUnknownPaths } : {}, (request, reply) => {
    const path = pathOf(request.url);
    // A path that exists for other methods: 405 with the methods it takes (RFC 9110 §15.5.6), not a 404.
    const methods = allowedAt(app, path);
    if (methods) {
      reply.header('Allow', methods);
      const detail = `${path} takes ${methods}, not ${request.method}.`;
      return sendProblem(reply, ctx.config.baseUrl, new ServiceError('method-not-allowed', detail), path);
    }
    sendProblem(
      reply,
      ctx.config.baseUrl,
      new ServiceError('not-found', `Nothing at ${request.method} ${path}.`),
      path,
    );
  });
}

async function registerRoutes(app: FastifyInstance, ctx: ServingContext): Promise<void> {
  // The OAuth authorization server: its access tokens are taken by the MCP endpoint and the RSVP routes.
  const oauth = await createOAuthProvider(ctx);
  registerHealthRoutes(app, ctx);
  registerEventWriteRoutes(app, ctx);
  registerEventReadRoutes(app, ctx);
  registerRsvpRoutes(app, ctx, oauth);
  registerMarkdownRoutes(app, ctx);
  registerCalendarRoutes(app, ctx);
  registerFeedRoutes(app, ctx);
  registerGeoRoutes(app, ctx);
  registerEmbedRoutes(app, ctx.config.baseUrl);
  registerCalendarLinkRoutes(app, ctx);
  registerProposalRoutes(app, ctx);
  registerWebhookRoutes(app, ctx);
  registerSourcesRoutes(app, ctx);
  registerPageRoutes(app, ctx);
  registerAddRoutes(app, ctx);
  registerMeRoutes(app, ctx);
  registerRsvpFormRoutes(app, ctx);
  registerOAuthRoutes(app, ctx, oauth);
  registerMcpRoutes(app, ctx, oauth);
  registerAdminRoutes(app, ctx);
  registerAdminPageRoutes(app, ctx);
  registerCalendarCheckRoute(app, ctx);
  registerProposalAdminRoutes(app, ctx);
  await registerDocsRoutes(app, ctx);
}
