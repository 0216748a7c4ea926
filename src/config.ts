import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ipaddr from 'ipaddr.js';

/** The feeds file shipped beside the service (src/ and dist/ are both one level below it). */
export const SHIPPED_FEEDS_FILE = fileURLToPath(new URL('../feeds.json', import.meta.url));

/** Everything the service reads from its environment, parsed once at start-up. */
export interface Config {
  port: number;
  host: string;
  /** The public base address used in every URL the service emits (no trailing slash). */
  baseUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** Whether the embedded engine flushes every commit to disk (EMBEDDED_FSYNC, on); off trades OS-crash safety for speed. */
  embeddedFsync: boolean;
  /** Connections to PostgreSQL per process (DATABASE_POOL_SIZE); requests queue for them (storage/database.ts). */
  databasePoolSize: number;
  /** Enables /api/admin routes when set. */
  adminToken: string | undefined;
  /** Fixes "now" for the whole service (tests, demos over past data). */
  fixedNow: Date | undefined;
  logLevel: string;
  /** Load the shipped snapshot of each feed's source into a database that has none of its events, at start-up. */
  seed: boolean;
  /** The feeds file: FEEDS_FILE, else the shipped one. A named file must exist; the shipped one may be missing. */
  feedsFile: { path: string; named: boolean };
  /** Minutes between syncs of the feeds inside `serve` (first one right after start-up); 0 turns syncing off. */
  syncIntervalMinutes: number;
  /**
   * Requests per minute before a 429: writes per API key, reads per client address; proposals (calendars and key
   * requests, keyless) and OAuth client registrations per client address and hour. 0 disables a limit.
   */
  rateLimits: {
    writesPerMinute: number;
    readsPerMinute: number;
    batchItemsPerMinute: number;
    proposalsPerHour: number;
    oauthClientsPerHour: number;
    /** New attendee identities (passkeys created) per client address and hour. */
    attendeesPerHour: number;
  };
  /**
   * Calendars hosts link (POST /api/calendars): how many per key, which private address ranges their URLs may
   * reach (`true`: all; public addresses are always allowed), and how long one read of one may take, whole.
   */
  calendars: { perKey: number; allowPrivateAddresses: boolean | string[]; readTimeoutMs: number };
  /**
   * Webhooks (POST /api/webhooks): subscriptions per key, one attempt's deadline, the first retry's delay (later ones
   * grow from it; see use-cases/webhook-delivery.ts) and how often each node looks for work besides being notified.
   */
  webhooks: { perKey: number; timeoutMs: number; retryBaseMs: number; pollMs: number };
  /** Which peers may set X-Forwarded-For (Fastify `trustProxy`): true, false, or a list of addresses/ranges. */
  trustProxy: boolean | string;
  /** Open connections the HTTP server keeps at most; more are closed as they arrive (MAX_CONNECTIONS). */
  maxConnections: number;
  /** Socket-level limits of the HTTP server, in milliseconds. */
  timeouts: {
    /** The whole request (headers and body) must arrive within this (Node `requestTimeout`); else 408. */
    requestMs: number;
    /** An idle keep-alive connection is closed after this. */
    keepAliveMs: number;
    /** A connection without any traffic for this long is closed (Fastify `connectionTimeout`). */
    connectionMs: number;
  };
}

export class ConfigError extends Error {}

function parsePort(value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new ConfigError(`PORT must be 0-65535, got "${value}"`);
  return port;
}

function parseCount(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value.trim() === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new ConfigError(`${name} must be a whole number ≥ 0, got "${value}"`);
  return n;
}

function positive(name: string, value: string | undefined, fallback: number): number {
  const n = parseCount(name, value, fallback);
  if (n === 0) throw new ConfigError(`${name} must be positive, got "${value}"`);
  return n;
}

function parseSwitch(name: string, value: string | undefined, fallback: boolean): boolean {
  const text = value?.trim().toLowerCase();
  if (text === undefined || text === '') return fallback;
  if (['on', '1', 'true'].includes(text)) return true;
  if (['off', '0', 'false'].includes(text)) return false;
  throw new ConfigError(`${name} must be on or off, got "${value}"`);
}

function parseSyncInterval(value: string | undefined): number {
  if (value === undefined || value.trim() === '') return 360;
  const minutes = Number(value);
  if (!Number.isFinite(minutes) || minutes < 0 || (minutes > 0 && minutes < 1))
    throw new ConfigError(`SYNC_INTERVAL_MINUTES must be 0 (off) or at least 1, got "${value}"`);
  return minutes;
}

function parseTrustProxy(value: string | undefined): boolean | string {
  // Default: proxies on loopback and private networks (a local nginx, a load balancer in the same VPC) may set
  // X-Forwarded-For; a public peer cannot spoof its address and so cannot dodge or borrow a per-client limit.
  if (value === undefined || value.trim() === '') return 'loopback,linklocal,uniquelocal';
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  return value;
}

function parseAddressRanges(value: string | undefined): boolean | string[] {
  if (value === undefined || value.trim() === '' || value === '0' || value === 'false') return false;
  if (value === '1' || value === 'true') return true;
  const ranges = value.split(',').map((r) => r.trim());
  for (const range of ranges) {
    try {
      ipaddr.parseCIDR(range);
    } catch {
      throw new ConfigError(
        `CALENDARS_ALLOW_PRIVATE_ADDRESSES must be 1 or a list of address ranges such as 10.0.0.0/8, got "${range}"`,
      );
    }
  }
  return ranges;
}

/**
 * BASE_URL as the service writes it into links and headers: an absolute http(s) URL, without credentials, query,
 * fragment or trailing slash, as the URL parser normalises it. Whitespace around it (the CR of a CRLF env file) is
 * dropped; a control character, quote, space or backslash inside refuses start-up, as it would reach headers raw.
 */
export function parseBaseUrl(value: string): string {
  const text = value.trim();
  const shown = JSON.stringify(value);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[\u0000-\u001f\u007f\s"'<>\\`]/.test(text))
    throw new ConfigError(`BASE_URL must not hold control characters, spaces, quotes or backslashes, got ${shown}`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ConfigError(`BASE_URL must be an absolute URL, got ${shown}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ConfigError(`BASE_URL must be an http or https URL, got ${shown}`);
  if (url.username || url.password || url.search || url.hash || !url.hostname)
    throw new ConfigError(
      `BASE_URL must be a plain origin and path, without credentials, query or fragment, got ${shown}`,
    );
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const port = overrides.port ?? parsePort(env.PORT, 3000);
  let fixedNow: Date | undefined;
  if (env.TECH_EVENTS_NOW) {
    fixedNow = new Date(env.TECH_EVENTS_NOW);
    if (Number.isNaN(fixedNow.getTime()))
      throw new ConfigError(`TECH_EVENTS_NOW is not an ISO timestamp: "${env.TECH_EVENTS_NOW}"`);
  }
  const baseUrl = parseBaseUrl(overrides.baseUrl ?? (env.BASE_URL || `http://localhost:${port}`));
  return {
    port,
    host: env.HOST || '0.0.0.0',
    dataDir: resolve(env.DATA_DIR || './data'),
    databaseUrl: env.DATABASE_URL || undefined,
    embeddedFsync: parseSwitch('EMBEDDED_FSYNC', env.EMBEDDED_FSYNC, true),
    databasePoolSize: positive('DATABASE_POOL_SIZE', env.DATABASE_POOL_SIZE, 10),
    adminToken: env.ADMIN_TOKEN || undefined,
    logLevel: env.LOG_LEVEL || 'info',
    seed: env.SEED !== '0' && env.SEED !== 'false',
    feedsFile: env.FEEDS_FILE
      ? { path: resolve(env.FEEDS_FILE), named: true }
      : { path: SHIPPED_FEEDS_FILE, named: false },
    syncIntervalMinutes: parseSyncInterval(env.SYNC_INTERVAL_MINUTES),
    fixedNow,
    rateLimits: {
      writesPerMinute: parseCount('RATE_LIMIT_WRITES_PER_MINUTE', env.RATE_LIMIT_WRITES_PER_MINUTE, 120),
      readsPerMinute: parseCount('RATE_LIMIT_READS_PER_MINUTE', env.RATE_LIMIT_READS_PER_MINUTE, 600),
      batchItemsPerMinute: parseCount(
        'RATE_LIMIT_BATCH_ITEMS_PER_MINUTE',
        env.RATE_LIMIT_BATCH_ITEMS_PER_MINUTE,
        5_000,
      ),
      proposalsPerHour: parseCount('RATE_LIMIT_PROPOSALS_PER_HOUR', env.RATE_LIMIT_PROPOSALS_PER_HOUR, 20),
      oauthClientsPerHour: parseCount('RATE_LIMIT_OAUTH_CLIENTS_PER_HOUR', env.RATE_LIMIT_OAUTH_CLIENTS_PER_HOUR, 20),
      attendeesPerHour: parseCount('ATTENDEES_PER_HOUR', env.ATTENDEES_PER_HOUR, 10),
    },
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    calendars: {
      perKey: positive('CALENDARS_PER_KEY', env.CALENDARS_PER_KEY, 20),
      allowPrivateAddresses: parseAddressRanges(env.CALENDARS_ALLOW_PRIVATE_ADDRESSES),
      readTimeoutMs: positive('CALENDAR_READ_TIMEOUT_MS', env.CALENDAR_READ_TIMEOUT_MS, 20_000),
    },
    webhooks: {
      perKey: positive('WEBHOOKS_PER_KEY', env.WEBHOOKS_PER_KEY, 20),
      timeoutMs: positive('WEBHOOKS_TIMEOUT_MS', env.WEBHOOKS_TIMEOUT_MS, 10_000),
      retryBaseMs: positive('WEBHOOKS_RETRY_BASE_MS', env.WEBHOOKS_RETRY_BASE_MS, 10_000),
      pollMs: positive('WEBHOOKS_POLL_MS', env.WEBHOOKS_POLL_MS, 2_000),
    },
    maxConnections: positive('MAX_CONNECTIONS', env.MAX_CONNECTIONS, 10_000),
    timeouts: {
      requestMs: positive('REQUEST_TIMEOUT_MS', env.REQUEST_TIMEOUT_MS, 30_000),
      keepAliveMs: positive('KEEP_ALIVE_TIMEOUT_MS', env.KEEP_ALIVE_TIMEOUT_MS, 72_000),
      connectionMs: positive('CONNECTION_TIMEOUT_MS', env.CONNECTION_TIMEOUT_MS, 120_000),
    },
    ...overrides,
    baseUrl,
  };
}
