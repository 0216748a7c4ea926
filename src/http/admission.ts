import type { IncomingMessage, ServerResponse } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';
import { ServiceError } from '../catalogue/errors.js';
import { QueueTooLong, secondsToRetry, TurnQueue } from '../runtime/turns.js';
import { problemBody } from './problem.js';
import { OPERATIONS_PATHS, pathOf } from './url-path.js';

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

/**
 * Reads admitted in turns before the framework sees them, so that a crowd cannot hold the event loop in one pass.
 *
 * Node hands every ready connection to the server in one pass of the loop, and libuv accepts one new connection
 * per listening socket per pass: with 2,000 keep-alive clients asking back to back, a pass answered some 1,000 cached
 * reads (half a millisecond each in the framework's pipeline) and a new client's connection waited seconds in the
 * kernel's queue. Here a pass answers reads directly for `budgetMs`, then only notes the rest and answers them in
 * turns between passes — a newcomer's (an address not seen lately) before the crowd's — so the loop comes round to
 * the listening socket every few milliseconds. A read that would wait longer than `maxWaitMs` is refused at once:
 * 503 `overloaded` with Retry-After. Writes, preflights and operations endpoints are never held here.
 */
export class ReadAdmission {
  private readonly turns: TurnQueue;
  /** When this pass of the loop began answering reads directly; cleared when the pass ends. */
  private passStartedAt: number | undefined;
  private readonly recent: RecentClients;
  private readonly clientOf: (request: IncomingMessage) => string;
  private readonly clock: () => number;
  private readonly budgetMs: number;

  constructor(
    private readonly options: {
      baseUrl: string;
      /** Which peers may set X-Forwarded-For (Fastify's `trustProxy`), so that the address here is `request.ip`. */
      trustProxy: boolean | string;
      budgetMs?: number;
      maxWaitMs: number;
      /** Told of each refusal, with the request's method. */
      onRefused?: (method: string) => void;
      clock?: () => number;
    },
  ) {
    this.clock = options.clock ?? (() => performance.now());
    this.budgetMs = options.budgetMs ?? BUDGET_MS;
    this.turns = new TurnQueue(this.budgetMs, this.clock);
    this.recent = new RecentClients(this.clock);
    this.clientOf = clientAddress(options.trustProxy);
  }

  /** The server's request handler, behind the gate. */
  gate(handler: Handler): Handler {
    return (request, response) => {
      if (!isHeldRead(request)) return handler(request, response);
      const newcomer = this.recent.isNew(this.clientOf(request));
      if (newcomer) newcomers.add(request);
      if (this.turns.waiting === 0 && this.withinPass()) return handler(request, response);
      this.turns
        .run(
          () => {
            // A client that left while its read waited is not answered.
            if (!request.socket.destroyed) handler(request, response);
          },
          // A backlog any node works off in a moment (a burst on a cold start, whose first turns are slow) is not
          // refused on the queue's estimate; past it, a read that would wait longer than the bound is.
          this.turns.waiting < REFUSE_FROM ? Number.POSITIVE_INFINITY : this.options.maxWaitMs,
          newcomer,
        )
        .catch((error: unknown) => this.refuse(request, response, error));
    };
  }

  /** Whether this pass of the loop has time left for answering reads directly. */
  private withinPass(): boolean {
    const now = this.clock();
    if (this.passStartedAt === undefined) {
      this.passStartedAt = now;
      setImmediate(this.endPass);
    }
    return now - this.passStartedAt < this.budgetMs;
  }

  private readonly endPass = () => {
    this.passStartedAt = undefined;
  };

  private refuse(request: IncomingMessage, response: ServerResponse, error: unknown): void {
    if (response.headersSent || request.socket.destroyed) return;
    const retryAfter = error instanceof QueueTooLong ? secondsToRetry(error.waitMs) : 1;
    const problem = overloadedReads(retryAfter);
    const body = JSON.stringify(problemBody(this.options.baseUrl, problem, pathOf(request.url ?? '/')));
    this.options.onRefused?.(request.method ?? 'GET');
    // The headers a framework answer would have: CORS-open (a browser may read the refusal and its Retry-After).
    response.writeHead(503, {
      'content-type': 'application/problem+json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
      'retry-after': String(retryAfter),
      'access-control-allow-origin': '*',
      'access-control-expose-headers': 'Retry-After',
      'cache-control': 'no-store',
    });
    response.end(request.method === 'HEAD' ? undefined : body);
  }
}

/** Reads refused for load, by the admission gate or the LoadShedder: 503 `overloaded` with Retry-After. */
export function overloadedReads(retryAfter: number): ServiceError {
  return new ServiceError('overloaded', `The service is answering more reads than it can; retry in ${retryAfter} s.`, {
    retryAfter,
  });
}

/** The reads that came from an address not seen lately (a memo per request): their ranking goes first too. */
const newcomers = new WeakSet<IncomingMessage>();

/** Whether a read came from an address the node had not seen lately (see ReadAdmission, TurnQueue). */
export const isNewcomer = (request: IncomingMessage) => newcomers.has(request);

/** Time a pass of the loop answers reads directly before the rest wait for turns, and the length of each turn. */
const BUDGET_MS = 4;

/** Reads waiting below which none is refused (as the LoadShedder's floor). */
const REFUSE_FROM = 64;

/** Reads: GET and HEAD, and MCP's POSTs (a search is a read) — not the operations endpoints load balancers poll. */
function isHeldRead(request: IncomingMessage): boolean {
  const method = request.method;
  if (method === 'GET' || method === 'HEAD') return !OPERATIONS_PATHS.has(pathOf(request.url ?? '/'));
  return method === 'POST' && pathOf(request.url ?? '/').startsWith('/api/mcp');
}

/** The client's address as Fastify's `request.ip` gives it, for the same `trustProxy` setting. */
function clientAddress(trustProxy: boolean | string): (request: IncomingMessage) => string {
  if (trustProxy === false) return (request) => request.socket.remoteAddress ?? '';
  const trust =
    trustProxy === true ? () => true : proxyAddr.compile(trustProxy.split(',').map((range) => range.trim()));
  return (request) => {
    const addresses = proxyAddr.all(request, trust);
    return addresses[addresses.length - 1] ?? '';
  };
}

/** Addresses seen in the current window of a few seconds: one not seen is a newcomer's. */
class RecentClients {
  private seen = new Set<string>();
  private window = 0;

  constructor(private readonly clock: () => number) {}

  isNew(client: string): boolean {
    const window = Math.floor(this.clock() / SEEN_WINDOW_MS);
    if (window !== this.window || this.seen.size > MAX_SEEN) {
      this.seen = new Set();
      this.window = window;
    }
    if (this.seen.has(client)) return false;
    this.seen.add(client);
    return true;
  }
}

const SEEN_WINDOW_MS = 10_000;
/** Addresses remembered per window at most; past it the window starts over. */
const MAX_SEEN = 50_000;
