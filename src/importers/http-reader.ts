import { lookup as dnsLookup, promises as dnsPromises, type LookupAddress, type LookupOptions } from 'node:dns';
import ipaddr from 'ipaddr.js';
import { Agent, fetch } from 'undici';
import type { AddressGuard } from './address-guard.js';
import { InputError } from './input-error.js';

/** What the copy we hold was served with: sent back as If-None-Match and If-Modified-Since. */
export interface Validators {
  etag?: string;
  lastModified?: string;
}

export { type AddressGuard, publicAddressesOnly } from './address-guard.js';

export interface HttpReadOptions {
  timeoutMs: number;
  maxBytes: number;
  /** Aborts the read, and any wait before it (the service stopping). */
  signal?: AbortSignal;
  validators?: Validators;
  /** Absent: any address (the operator's own feeds file may name an intranet server). */
  guard?: AddressGuard;
  userAgent: string;
  /** The longest `Retry-After` waited for before the one retry; a longer one fails the read and says when. */
  maxRetryWaitMs?: number;
}

export type HttpRead =
  | { notModified: true }
  | { notModified: false; text: string; contentType: string | undefined; validators: Validators };

const MAX_REDIRECTS = 5;
const DEFAULT_MAX_RETRY_WAIT_MS = 120_000;
/** The longest a host is left alone for one `Retry-After`, however long it asked: a typo must not silence it for days. */
const MAX_HOLD_MS = 24 * 60 * 60_000;
/** Requests in flight to one host at a time, whatever feeds and calendars ask of it. */
export const PER_HOST_CONCURRENCY = 4;

/**
 * Per host: requests in flight, those waiting, and a `Retry-After` time before which none starts. By hand, as the
 * libraries limit concurrency or hold a host back, not both.
 */
class HostGate {
  private readonly hosts = new Map<string, { active: number; waiting: (() => void)[]; notBefore: number }>();

  private state(host: string) {
    let state = this.hosts.get(host);
    if (!state) {
      state = { active: 0, waiting: [], notBefore: 0 };
      this.hosts.set(host, state);
    }
    return state;
  }

  /** Holds the host back until `at` (ms since the epoch), for every request that starts after now. */
  holdUntil(host: string, at: number): void {
    const state = this.state(host);
    state.notBefore = Math.max(state.notBefore, Math.min(at, Date.now() + MAX_HOLD_MS));
  }

  /**
   * Waits for a turn at the host and for any time it asked to be left alone; returns the release. A pause that ends
   * after `deadline` (ms since the epoch) fails at once: a read never waits for what it could not use.
   */
  async enter(host: string, signal: AbortSignal | undefined, deadline: number): Promise<() => void> {
    const state = this.state(host);
    this.refuseHeld(host, state.notBefore, deadline);
    while (state.active >= PER_HOST_CONCURRENCY) {
      let wake: () => void = () => {};
      const turn = new Promise<void>((resolve) => {
        wake = resolve;
        state.waiting.push(resolve);
      });
      try {
        await abortable(turn, signal);
      } catch (error) {
        state.waiting.splice(state.waiting.indexOf(wake), 1);
        throw error;
      }
    }
    state.active++;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      state.active--;
      state.waiting.shift()?.();
      if (state.active === 0 && state.waiting.length === 0 && state.notBefore < Date.now()) this.hosts.delete(host);
    };
    try {
      this.refuseHeld(host, state.notBefore, deadline);
      const wait = state.notBefore - Date.now();
      if (wait > 0) await sleep(wait, signal);
    } catch (error) {
      release();
      throw error;
    }
    return release;
  }

  private refuseHeld(host: string, notBefore: number, deadline: number): void {
    if (notBefore <= deadline) return;
    const retryAfterMs = notBefore - Date.now();
    throw new InputError(
      `${host} asked not to be read before ${new Date(notBefore).toISOString()} (Retry-After); not read until then`,
      { retryAfterMs },
    );
  }
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return abortable(new Promise<void>((resolve) => setTimeout(resolve, ms).unref()), signal);
}

async function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) throw new InputError('the read was stopped');
  let listener: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    listener = () => reject(new InputError('the read was stopped'));
    signal.addEventListener('abort', listener, { once: true });
  });
  try {
    return await Promise.race([promise, aborted]);
  } finally {
    if (listener) signal.removeEventListener('abort', listener);
  }
}

/** An agent that resolves names through the guard, so the address checked is the one connected to. */
function guardedAgent(guard: AddressGuard | undefined): Agent {
  if (!guard) return new Agent();
  const lookup = (
    hostname: string,
    options: LookupOptions,
    callback: (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
  ) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const refused = addresses.find((a) => !guard.allows(a.address));
      if (refused) return callback(new AddressRefused(hostname, refused.address, guard), '', 0);
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
  return new Agent({ connect: { lookup } });
}

class AddressRefused extends Error {
  readonly code = 'EADDRREFUSED';
  constructor(hostname: string, address: string, guard: AddressGuard) {
    super(`${hostname} resolves to ${address}, ${guard.description}`);
  }
}

/** A host that is an address literal is connected to without a lookup: checked here instead. */
function checkLiteral(url: URL, guard: AddressGuard | undefined): void {
  if (!guard) return;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (ipaddr.isValid(host) && !guard.allows(host))
    throw new InputError(`${url.host} is ${guard.description}`, { refused: true });
}

/**
 * Checks where a URL leads before anything is read: its host's addresses, each through the guard. Throws InputError
 * (`refused` for an address the guard refuses; a name that does not resolve within `timeoutMs` is not refused here,
 * the read will say what it finds).
 */
export async function checkAddress(address: string, guard: AddressGuard | undefined, timeoutMs = 2_000): Promise<void> {
  const url = new URL(address.replace(/^webcal:/i, 'https:'));
  checkLiteral(url, guard);
  if (!guard || ipaddr.isValid(url.hostname.replace(/^\[|\]$/g, ''))) return;
  const found = await within(
    dnsPromises.lookup(url.hostname, { all: true }).catch(() => undefined),
    timeoutMs,
  );
  const refused = found?.find((a) => !guard.allows(a.address));
  if (refused)
    throw new InputError(`${url.hostname} resolves to ${refused.address}, ${guard.description}`, { refused: true });
}

/** The promise's value if it settles within `ms`, else undefined (it goes on). */
export async function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  if (ms === Number.POSITIVE_INFINITY) return promise;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms).unref();
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** A `Retry-After` value (seconds, or an HTTP date) as milliseconds from now; undefined when absent or unreadable. */
export function retryAfterMs(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

export const mb = (bytes: number) =>
  bytes < 1024 * 1024 ? `${bytes} bytes` : `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;

/**
 * The reads one service makes of other people's servers: its turns at each host and the pauses hosts asked of it,
 * and its connections (one agent per address guard). Made with the service's context and closed with it, so two
 * services in one process keep their own.
 */
export class HttpReader {
  private readonly gate = new HostGate();
  private readonly agents = new Map<AddressGuard | undefined, Agent>();

  /**
   * GETs a URL as UTF-8 text, politely: conditional when validators are given, a `User-Agent` naming the service, a
   * few requests per host, 429/503 `Retry-After` waited out and retried once, redirects (at most 5) each checked by
   * the guard. `timeoutMs` bounds the whole read — the wait for a turn at the host, redirects, a retry, every byte of
   * the body — whatever the server declares. Throws InputError.
   */
  async get(url: string, options: HttpReadOptions): Promise<HttpRead> {
    const maxWait = options.maxRetryWaitMs ?? DEFAULT_MAX_RETRY_WAIT_MS;
    const deadline = Date.now() + options.timeoutMs;
    const timeout = AbortSignal.timeout(options.timeoutMs);
    const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
    const fail = failure(url, options, timeout);
    const agent = this.agentFor(options.guard);
    for (let attempt = 1; ; attempt++) {
      try {
        return await getOnce(url, { ...options, signal }, { gate: this.gate, agent, deadline, fail });
      } catch (error) {
        const wait = error instanceof InputError ? error.retryAfterMs : undefined;
        if (wait === undefined || attempt > 1 || wait > maxWait) throw error;
        // gate.holdUntil was set by getOnce: the retry waits its turn like every other request to the host, and
        // fails at once when the pause ends after the deadline.
      }
    }
  }

  /** The connections to servers a guard allows, each address checked as connected to (webhooks post through it). */
  agentFor(guard: AddressGuard | undefined): Agent {
    let agent = this.agents.get(guard);
    if (!agent) {
      agent = guardedAgent(guard);
      this.agents.set(guard, agent);
    }
    return agent;
  }

  /** Closes the connections (after the requests under way). */
  async close(): Promise<void> {
    const agents = [...this.agents.values()];
    this.agents.clear();
    await Promise.all(agents.map((agent) => agent.close()));
  }
}

/** What one read goes through: the reader's gate and the agent of its guard, until the read's deadline. */
interface ReadTurn {
  gate: HostGate;
  agent: Agent;
  deadline: number;
  fail: (error: unknown) => never;
}

async function getOnce(
  address: string,
  options: HttpReadOptions & { signal: AbortSignal },
  { gate, agent, deadline, fail }: ReadTurn,
): Promise<HttpRead> {
  let url = new URL(address.replace(/^webcal:/i, 'https:'));
  const { signal, guard } = options;
  const release = await gate.enter(url.host, signal, deadline).catch(fail);
  try {
    const headers = requestHeaders(options);
    for (let hop = 0; ; hop++) {
      if (!/^https?:$/.test(url.protocol)) throw new InputError(`${url.protocol} links are not read; use https`);
      checkLiteral(url, guard);
      let response: FetchResponse;
      try {
        response = await fetch(url, { signal, redirect: 'manual', headers, dispatcher: agent });
      } catch (error) {
        return fail(error);
      }
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && response.status !== 304 && location) {
        await discard(response);
        if (hop === MAX_REDIRECTS) throw new InputError(`GET ${address}: more than ${MAX_REDIRECTS} redirects`);
        const next = URL.parse(location, url.href);
        if (!next)
          throw new InputError(`GET ${address}: redirected to "${location.slice(0, 200)}", which is not a URL`);
        url = next;
        continue;
      }
      if (response.status === 304) {
        await discard(response);
        return { notModified: true };
      }
      if (!response.ok) {
        await discard(response);
        const error = notOk(response, address);
        // The host asked for a pause: every request to it waits, not only a retry of this one.
        if (error.retryAfterMs !== undefined) gate.holdUntil(url.host, Date.now() + error.retryAfterMs);
        throw error;
      }
      return await readResponse(response, address, options.maxBytes, fail);
    }
  } finally {
    release();
  }
}

type FetchResponse = Awaited<ReturnType<typeof fetch>>;

const discard = (response: FetchResponse) => response.body?.cancel().catch(() => {});

/** Turns what stopped a request (the caller, the timeout, a refused address, the network) into an InputError. */
function failure(address: string, options: HttpReadOptions, timeout: AbortSignal): (error: unknown) => never {
  return (error) => {
    if (error instanceof InputError && !timeout.aborted) throw error;
    if (options.signal?.aborted) throw new InputError(`GET ${address} was stopped`);
    if (timeout.aborted)
      throw new InputError(
        `GET ${address} timed out after ${options.timeoutMs / 1000} s (the whole answer must arrive within it)`,
      );
    if (error instanceof InputError) throw error;
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    if (cause instanceof AddressRefused) throw new InputError(cause.message, { refused: true });
    throw new InputError(`GET ${address} failed: ${cause?.code ?? cause?.message ?? (error as Error).message}`);
  };
}

function requestHeaders(options: HttpReadOptions): Record<string, string> {
  const headers: Record<string, string> = {
    accept: 'text/calendar, application/json, text/plain;q=0.9, */*;q=0.8',
    'user-agent': options.userAgent,
  };
  if (options.validators?.etag) headers['if-none-match'] = options.validators.etag;
  if (options.validators?.lastModified) headers['if-modified-since'] = options.validators.lastModified;
  return headers;
}

/** An answer other than 2xx/304, with the wait a 429 or 503 asked for. */
function notOk(response: FetchResponse, address: string): InputError {
  const retryAfter =
    response.status === 429 || response.status === 503 ? retryAfterMs(response.headers.get('retry-after')) : undefined;
  return new InputError(
    `GET ${address} answered HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}${
      retryAfter !== undefined ? ` (retry after ${Math.ceil(retryAfter / 1000)} s)` : ''
    }`,
    { notFound: response.status === 404 || response.status === 410, retryAfterMs: retryAfter },
  );
}

/** The body as UTF-8 text with the validators to send next time; refused once larger than `maxBytes`. */
async function readResponse(
  response: FetchResponse,
  address: string,
  maxBytes: number,
  fail: (error: unknown) => never,
): Promise<HttpRead> {
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (declared > maxBytes) {
    await discard(response);
    throw new InputError(`GET ${address}: the response is larger than ${mb(maxBytes)} (${mb(declared)})`);
  }
  // Counted while streaming: a server may send no length, or a wrong one.
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for await (const chunk of response.body ?? []) {
      size += chunk.byteLength;
      if (size > maxBytes) throw new InputError(`GET ${address}: the response is larger than ${mb(maxBytes)}`);
      chunks.push(chunk);
    }
  } catch (error) {
    await discard(response);
    return fail(error);
  }
  const validators: Validators = {};
  const etag = response.headers.get('etag');
  const lastModified = response.headers.get('last-modified');
  if (etag) validators.etag = etag;
  if (lastModified) validators.lastModified = lastModified;
  return {
    notModified: false,
    text: new TextDecoder('utf-8').decode(Buffer.concat(chunks)),
    contentType: response.headers.get('content-type') ?? undefined,
    validators,
  };
}
