import { Webhook } from 'standardwebhooks';
import { fetch } from 'undici';
import type { ServingContext } from '../context.js';
import { checkAddress, retryAfterMs } from '../importers/http-reader.js';
import type { ClaimedMessage } from '../storage/webhooks.repository.js';
import { fanOutStep, type WebhookPayload } from './webhook-fan-out.js';

/** Attempts under way per node at most: a target that hangs holds one of them for its deadline, no more. */
const IN_FLIGHT = 32;
/** What is read of a target's answer at most (it is only kept as the error of a failed attempt). */
const RESPONSE_LIMIT = 16 * 1024;
/** Attempts of one message: the first at once, then after base·4^(n−1) (capped at CAP_FACTOR·base), ±20 %. */
export const MAX_ATTEMPTS = 10;
const CAP_FACTOR = 2_160;
/** The claim outlives the attempt's deadline by this: a node killed mid-attempt leaves a claim that expires. */
const LEASE_EXTRA_MS = 5_000;
/** How long after an attempt ends more are claimed: those ending meanwhile free their slots for the same claim. */
const CLAIM_WAIT_MS = 10;
/** Successes recorded in one transaction at most, and how long one waits for others to join it. */
const RECORD_BATCH = 64;
const RECORD_WAIT_MS = 20;
/** How soon a fan-out step is tried again when this node's read index had not caught up with a change. */
const INDEX_WAIT_MS = 50;

/** The wait after the `attempt`-th failed attempt (1-based): base·4^(attempt−1), capped, with jitter of ±20 %. */
export function retryDelayMs(attempt: number, baseMs: number, random = Math.random()): number {
  const plain = Math.min(baseMs * 4 ** (attempt - 1), baseMs * CAP_FACTOR);
  return Math.round(plain * (0.8 + 0.4 * random));
}

/** The `webhook-signature` header: one `v1,<sig>` per secret that signs now (two during a rotation). */
function signatures(message: ClaimedMessage, at: Date): string {
  const secrets = [message.secret];
  if (message.previousSecret && message.previousUntil && message.previousUntil.getTime() > at.getTime())
    secrets.push(message.previousSecret);
  return secrets.map((secret) => new Webhook(secret).sign(message.id, at, message.payload)).join(' ');
}

interface Attempt {
  status: number | null;
  error: string | undefined;
  retryAfter: number | undefined;
}

/** Reads at most RESPONSE_LIMIT bytes of an answer, then lets go of it. */
async function headOf(body: ReadableStream<Uint8Array> | null): Promise<string> {
  if (!body) return '';
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < RESPONSE_LIMIT) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.length;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  return Buffer.concat(chunks).subarray(0, RESPONSE_LIMIT).toString('utf8');
}

/** One POST of a message: signed, within the deadline, no redirect followed, its address checked again. */
async function post(ctx: ServingContext, message: ClaimedMessage, stop: AbortSignal): Promise<Attempt> {
  const at = new Date();
  try {
    await checkAddress(message.url, ctx.calendarGuard);
    const response = await fetch(message.url, {
      method: 'POST',
      body: message.payload,
      redirect: 'manual',
      dispatcher: ctx.httpReader.agentFor(ctx.calendarGuard),
      signal: AbortSignal.any([AbortSignal.timeout(ctx.config.webhooks.timeoutMs), stop]),
      headers: {
        'content-type': 'application/json',
        'user-agent': `tech-events-webhooks (+${ctx.config.baseUrl})`,
        'webhook-id': message.id,
        'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
        'webhook-signature': signatures(message, at),
      },
    });
    const head = await headOf(response.body as ReadableStream<Uint8Array> | null);
    if (response.status >= 200 && response.status < 300)
      return { status: response.status, error: undefined, retryAfter: undefined };
    const redirect = response.status >= 300 && response.status < 400;
    return {
      status: response.status,
      error: redirect
        ? `answered ${response.status} (redirects are not followed)`
        : `answered ${response.status}${head ? `: ${head.slice(0, 200)}` : ''}`,
      retryAfter: retryAfterMs(response.headers.get('retry-after')),
    };
  } catch (error) {
    if (stop.aborted) throw error;
    const err = error as Error & { cause?: Error };
    const timedOut = err.name === 'TimeoutError' || err.cause?.name === 'TimeoutError';
    return {
      status: null,
      error: timedOut
        ? `no answer within ${ctx.config.webhooks.timeoutMs} ms`
        : (err.cause?.message ?? err.message ?? String(error)),
      retryAfter: undefined,
    };
  }
}

/** Tries one claimed message and records what came of it (a success through `delivered`, which gathers them). */
async function deliver(
  ctx: ServingContext,
  message: ClaimedMessage,
  stop: AbortSignal,
  delivered: (message: ClaimedMessage, status: number) => void,
): Promise<void> {
  let attempt: Attempt;
  try {
    attempt = await post(ctx, message, stop);
  } catch {
    await ctx.webhooks.release(message.id).catch(() => {});
    return;
  }
  const { metrics, webhooks } = ctx;
  if (attempt.error === undefined) {
    delivered(message, attempt.status!);
    metrics.webhookDeliveries.inc({ outcome: 'delivered' });
    return;
  }
  const error = attempt.error;
  if (attempt.status === 410) {
    await webhooks.failed(
      message,
      { status: 410, error, retryInMs: undefined, stop: 'disabled' },
      `The target answered 410 Gone on ${new Date().toISOString()}: nothing more is sent (resume to send again).`,
    );
    metrics.webhookDeliveries.inc({ outcome: 'gone' });
    return;
  }
  const base = ctx.config.webhooks.retryBaseMs;
  if (message.attempts >= MAX_ATTEMPTS) {
    await webhooks.failed(
      message,
      { status: attempt.status, error, retryInMs: undefined, stop: 'paused' },
      `Paused on ${new Date().toISOString()}: message ${message.id} failed ${message.attempts} attempts over a day (last: ${error}). Resume to send what is pending.`,
    );
    metrics.webhookDeliveries.inc({ outcome: 'failed' });
    return;
  }
  const delay = retryDelayMs(message.attempts, base);
  const asked = attempt.retryAfter === undefined ? 0 : Math.min(attempt.retryAfter, base * CAP_FACTOR);
  await webhooks.failed(message, { status: attempt.status, error, retryInMs: Math.max(delay, asked) });
  metrics.webhookDeliveries.inc({ outcome: 'retry' });
}

/**
 * The webhooks of one app node, started and stopped with the service: it fans queued changes out into messages and
 * delivers due messages, on every NOTIFY `webhooks` (a change queued, a message added) and every `pollMs` besides
 * (retries fall due, another node's notification lost). Several nodes share the work through the database alone.
 * Successes are recorded a few at a time, in one transaction (a message stays claimed, and pending, until then).
 */
export function startWebhooks(ctx: ServingContext, payload: WebhookPayload): { stop(): Promise<void> } {
  const stopping = new AbortController();
  const inFlight = new Set<Promise<void>>();
  const lease = ctx.config.webhooks.timeoutMs + LEASE_EXTRA_MS;
  let running: Promise<void> | undefined;
  let wantFanOut = false;
  let wantFill = false;
  let indexTimer: NodeJS.Timeout | undefined;
  let unlisten: (() => Promise<void>) | undefined;
  let succeeded: { message: ClaimedMessage; status: number }[] = [];
  let recording: Promise<void> = Promise.resolve();
  let recordTimer: NodeJS.Timeout | undefined;
  let fillTimer: NodeJS.Timeout | undefined;

  const record = () => {
    if (recordTimer) clearTimeout(recordTimer);
    recordTimer = undefined;
    const done = succeeded;
    succeeded = [];
    recording = recording
      .then(() => ctx.webhooks.delivered(done))
      .catch((error) => ctx.logger.warn({ err: error }, 'webhooks: deliveries not recorded; they will be sent again'))
      .finally(() => wake(false));
    return recording;
  };
  const delivered = (message: ClaimedMessage, status: number) => {
    succeeded.push({ message, status });
    if (succeeded.length >= RECORD_BATCH) record();
    else recordTimer ??= setTimeout(record, RECORD_WAIT_MS);
  };

  const fanOut = async () => {
    for (;;) {
      const step = await fanOutStep(ctx, payload);
      if (!step) return; // another node fans out now
      if (step.waiting > 0 && !indexTimer) {
        indexTimer = setTimeout(() => {
          indexTimer = undefined;
          wake();
        }, INDEX_WAIT_MS);
        indexTimer.unref();
      }
      if (step.done === 0) return;
    }
  };

  const fill = async () => {
    while (!stopping.signal.aborted && inFlight.size < IN_FLIGHT) {
      const claimed = await ctx.webhooks.claim(IN_FLIGHT - inFlight.size, lease);
      if (claimed.length === 0) return;
      for (const message of claimed) {
        const attempt: Promise<void> = deliver(ctx, message, stopping.signal, delivered)
          .catch((error) => ctx.logger.warn({ err: error, message: message.id }, 'webhook attempt not recorded'))
          .finally(() => {
            inFlight.delete(attempt);
            // Attempts ending together make one claim, one commit, not one each.
            fillTimer ??= setTimeout(() => {
              fillTimer = undefined;
              wake(false);
            }, CLAIM_WAIT_MS);
          });
        inFlight.add(attempt);
      }
    }
  };

  /** Work to do: fan out (a change may be queued) and deliver, or (an attempt ended) only deliver. */
  const wake = (changes = true) => {
    if (stopping.signal.aborted) return;
    wantFanOut ||= changes;
    wantFill = true;
    if (running) return;
    running = (async () => {
      while ((wantFanOut || wantFill) && !stopping.signal.aborted) {
        const fanning = wantFanOut;
        wantFanOut = false;
        wantFill = false;
        try {
          if (fanning) await fanOut();
          await fill();
        } catch (error) {
          if (!stopping.signal.aborted) ctx.logger.warn({ err: error }, 'webhooks: a step failed; tried again soon');
        }
      }
      running = undefined;
    })();
  };

  const poll = setInterval(wake, ctx.config.webhooks.pollMs);
  poll.unref();
  const listening = ctx.storage
    .listen('webhooks', () => wake(), wake)
    .then((stop) => {
      unlisten = stop;
    })
    .catch((error) => ctx.logger.warn({ err: error }, 'webhooks: no LISTEN, polling only'));
  wake();
  return {
    async stop() {
      stopping.abort();
      clearInterval(poll);
      if (indexTimer) clearTimeout(indexTimer);
      if (fillTimer) clearTimeout(fillTimer);
      await listening;
      await unlisten?.();
      await running;
      await Promise.all([...inFlight]);
      await record();
    },
  };
}
