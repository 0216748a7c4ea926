import { resolve } from 'node:path';

/** Everything the service reads from its environment, parsed once at start-up. */
export interface Config {
  port: number;
  host: string;
  /** The public base address used in every URL the service emits (no trailing slash). */
  baseUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** Enables /api/admin routes when set. */
  adminToken: string | undefined;
  /** Fixes "now" for the whole service (tests, demos over past data). */
  fixedNow: Date | undefined;
  logLevel: string;
  /** Load the shipped curated catalogue into an empty database at start-up. */
  seed: boolean;
}

export class ConfigError extends Error {}

function parsePort(value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new ConfigError(`PORT must be 0-65535, got "${value}"`);
  return port;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const port = overrides.port ?? parsePort(env.PORT, 3000);
  let fixedNow: Date | undefined;
  if (env.TECH_EVENTS_NOW) {
    fixedNow = new Date(env.TECH_EVENTS_NOW);
    if (Number.isNaN(fixedNow.getTime()))
      throw new ConfigError(`TECH_EVENTS_NOW is not an ISO timestamp: "${env.TECH_EVENTS_NOW}"`);
  }
  const baseUrl = (overrides.baseUrl ?? (env.BASE_URL || `http://localhost:${port}`)).replace(/\/+$/, '');
  try {
    new URL(baseUrl);
  } catch {
    throw new ConfigError(`BASE_URL must be an absolute URL, got "${baseUrl}"`);
  }
  return {
    port,
    host: env.HOST || '0.0.0.0',
    dataDir: resolve(env.DATA_DIR || './data'),
    databaseUrl: env.DATABASE_URL || undefined,
    adminToken: env.ADMIN_TOKEN || undefined,
    logLevel: env.LOG_LEVEL || 'info',
    seed: env.SEED !== '0' && env.SEED !== 'false',
    fixedNow,
    ...overrides,
    baseUrl,
  };
}
