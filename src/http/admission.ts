import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ServiceError } from '../catalogue/errors.js';
import { classOf } from './route-class.js';

/** How reads are let in: see ReadAdmission. */
export interface AdmissionLimits {
  /** How long one turn of the event loop may spend starting reads before the rest wait for the next turn. */
  turnMs: number;
  /** Reads waiting at most; one more is refused at once. */
  queueLength: number;
  /** The longest a read waits for its turn; past it, it is refused. */
  maxWaitMs: number;
}

export const ADMISSION: AdmissionLimits = { turnMs: 4, queueLength: 1_024, maxWaitMs: 2_000 };

/**
 * Reads let into the service a turn of the event loop at a time: a ranking is synchronous work, so a read starts at
 * once only while this turn of the loop has spent less than `turnMs` on reads and none waits; the rest wait in
 * arrival order for the next turns, after the loop has polled I/O (a write's database reply, a webhook's answer).
 * A read is refused with 503 `overloaded` and Retry-After when `queueLength` wait already, or once it waited
 * `maxWaitMs`. Writes and operations endpoints are never held: writes have their per-key limits and the database's
 * queue. A crowd of connections is a reverse proxy's to hold (deploy/haproxy/haproxy.cfg, docs/operations.md).
 */
export class ReadAdmission {
  private readonly waiting: Waiter[] = [];
  /** When this turn of the loop began starting reads; undefined between turns. */
  private turnStartedAt: number | undefined;

  constructor(
    private readonly limits: AdmissionLimits,
    private readonly clock: () => number = () => performance.now(),
  ) {}

  /** Whether a read may start at once: none waits and this turn of the loop has time left for reads. */
  startsNow(): boolean {
    return this.waiting.length === 0 && this.withinTurn();
  }

  /**
   * Queues `start` for a later turn, in arrival order, or calls `refuse` with the seconds after which to come back:
   * at once when the queue is full, else once `start` waited `maxWaitMs`. Returns how to leave the queue (its
   * client left): then neither is called.
   */
  wait(start: () => void, refuse: (retryAfter: number) => void): () => void {
    if (this.waiting.length >= this.limits.queueLength) {
      refuse(1);
      return () => {};
    }
    const leave = () => {
      clearTimeout(waiter.timer);
      const at = this.waiting.indexOf(waiter);
      if (at >= 0) this.waiting.splice(at, 1);
    };
    const timer = setTimeout(() => {
      leave();
      refuse(Math.ceil(this.limits.maxWaitMs / 1000));
    }, this.limits.maxWaitMs);
    const waiter = { start, timer };
    this.waiting.push(waiter);
    if (this.waiting.length === 1) setImmediate(this.turn);
    return leave;
  }

  /** Reads waiting for a turn. */
  get queued(): number {
    return this.waiting.length;
  }

  private withinTurn(): boolean {
    const now = this.clock();
    if (this.turnStartedAt === undefined) {
      this.turnStartedAt = now;
      setImmediate(this.endTurn);
    }
    return now - this.turnStartedAt < this.limits.turnMs;
  }

  private readonly endTurn = () => {
    this.turnStartedAt = undefined;
  };

  private readonly turn = () => {
    const started = this.clock();
    while (this.waiting.length > 0 && this.clock() - started < this.limits.turnMs) {
      const waiter = this.waiting.shift()!;
      clearTimeout(waiter.timer);
      waiter.start();
    }
    if (this.waiting.length > 0) setImmediate(this.turn);
  };
}

interface Waiter {
  start(): void;
  timer: NodeJS.Timeout;
}

/** Reads refused for load: 503 `overloaded` with Retry-After. */
export function overloadedReads(retryAfter: number): ServiceError {
  return new ServiceError('overloaded', `The service is answering more reads than it can; retry in ${retryAfter} s.`, {
    retryAfter,
  });
}

/** Whether a request is a read the admission holds: every class but writes and operations, and no preflight. */
function isHeld(request: FastifyRequest): boolean {
  if (request.method === 'OPTIONS') return false;
  const routeClass = classOf(request);
  return routeClass !== 'write' && routeClass !== 'operations';
}

/**
 * Registers the admission of reads (see ReadAdmission) after the cheap refusals of `onRequest` (rate limits, a second
 * Host, a key in the query), so that a refused request takes no turn, and before the response cache is looked up.
 */
export function registerAdmission(app: FastifyInstance, limits: AdmissionLimits): ReadAdmission {
  const admission = new ReadAdmission(limits);
  /** How each waiting read leaves the queue when its client goes (Fastify's `onRequestAbort`). */
  const leaving = new WeakMap<FastifyRequest, () => void>();
  app.addHook('preParsing', (request, _reply, _payload, done) => {
    // The common case allocates nothing: a read that may start, or a request that is no read.
    if (!isHeld(request) || admission.startsNow()) return done();
    const leave = admission.wait(
      () => {
        leaving.delete(request);
        // A client that left in this turn, before its leaving was heard, is not answered either.
        if (!request.raw.socket?.destroyed) done();
      },
      (retryAfter) => {
        leaving.delete(request);
        done(overloadedReads(retryAfter));
      },
    );
    leaving.set(request, leave);
  });
  app.addHook('onRequestAbort', (request, done) => {
    leaving.get(request)?.();
    leaving.delete(request);
    done();
  });
  return admission;
}
