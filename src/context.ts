import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import type { Config } from './config.js';
import type { Feed } from './importers/feeds.js';
import { type AddressGuard, HttpReader, publicAddressesOnly } from './importers/http-reader.js';
import { Metrics } from './observability/metrics.js';
import { COUNTRIES } from './places/countries.js';
import { ReadIndex } from './query/read-index.js';
import { BackgroundJobs } from './runtime/jobs.js';
import { MemoryRelease } from './runtime/memory.js';
import { Remembered } from './runtime/remembered.js';
import { AttendeesRepository } from './storage/attendees.repository.js';
import { CalendarsRepository } from './storage/calendars.repository.js';
import type { Storage } from './storage/database.js';
import { EventsRepository } from './storage/events.repository.js';
import { KeysRepository } from './storage/keys.repository.js';
import { ProposalsRepository } from './storage/proposals.repository.js';
import { RegistrationsRepository } from './storage/registrations.repository.js';
import { SourcePartsRepository } from './storage/source-parts.repository.js';
import { SourcesRepository } from './storage/sources.repository.js';
import { WebhooksRepository } from './storage/webhooks.repository.js';

/** The dependencies of every use case, built once at start-up and passed along (no globals, no container). */
export interface AppContext {
  config: Config;
  storage: Storage;
  events: EventsRepository;
  keys: KeysRepository;
  registrations: RegistrationsRepository;
  /** Attendees (people who RSVP, known by a random id and a handle), their passkeys and sessions. */
  attendees: AttendeesRepository;
  /** The state of each source (feeds, imports, shipped snapshots). */
  sources: SourcesRepository;
  /** The state of each URL or calendar a source reads (validators, last read, errors). */
  sourceParts: SourcePartsRepository;
  /** The calendars hosts linked to their keys. */
  calendars: CalendarsRepository;
  /** Calendars communities proposed and keys asked for, with the operator's decisions. */
  proposals: ProposalsRepository;
  /** Keys' webhook subscriptions, the outbox of changes and the messages sent. */
  webhooks: WebhooksRepository;
  /** The feeds of the feeds file (disabled ones included), as loaded at start-up. */
  feeds: readonly Feed[];
  logger: Logger;
  /**
   * The in-memory read index every query runs on, in a process that serves reads; use cases that write keep it in
   * step. A command-line process has none.
   */
  index: ReadIndex | undefined;
  /** The service's notion of "now" (fixed by TECH_EVENTS_NOW in tests and demos). */
  now(): Date;
  /** The addresses a host's linked calendar may lead to: public ones, and what the operator allows besides. */
  calendarGuard: AddressGuard | undefined;
  /** How this service reads other people's servers (feeds, calendars): its turns per host, its connections. */
  httpReader: HttpReader;
  /** What use cases of this service remember for a while, with when (epoch ms of ctx.now). */
  remembered: Remembered;
  /** What operators watch (GET /metrics), in a process that serves; use cases count what they do. */
  metrics: Metrics | undefined;
  /** Work under way in the background (a calendar's first read, an operator's sync), stopped with the process. */
  jobs: BackgroundJobs;
}

/** Whether the read index has caught up with the database: index-sync keeps it, /readyz and /metrics report it. */
export interface IndexFreshness {
  /** Since when (epoch ms) refreshes have failed without one succeeding since; undefined while caught up. */
  behindSince: number | undefined;
  /**
   * Whether the index has applied every change the database announced before the call, waiting for it at most
   * `maxWaitMs` (the index sync sets it; without one, nothing is followed).
   */
  applied?: (maxWaitMs: number) => Promise<boolean>;
}

/** The context of a process that serves reads: HTTP and MCP run on it. */
export interface ServingContext extends AppContext {
  index: ReadIndex;
  freshness: IndexFreshness;
  metrics: Metrics;
  /** Signs pagination cursors; shared by the app nodes of one database (see settings.repository.ts). */
  cursorSecret: Buffer;
  /** Gives memory back to the system after the index is built and when the process is idle. */
  memory: MemoryRelease;
}

function baseContext(
  config: Config,
  storage: Storage,
  logger: Logger,
  feeds: readonly Feed[],
): Omit<AppContext, 'index' | 'metrics'> {
  const fixed = config.fixedNow;
  const now = fixed ? () => new Date(fixed.getTime()) : () => new Date();
  const allowed = config.calendars.allowPrivateAddresses;
  return {
    config,
    storage,
    logger,
    events: new EventsRepository(storage.db),
    keys: new KeysRepository(storage.db),
    registrations: new RegistrationsRepository(storage.db),
    attendees: new AttendeesRepository(storage.db),
    sources: new SourcesRepository(storage.db),
    sourceParts: new SourcePartsRepository(storage.db),
    calendars: new CalendarsRepository(storage.db),
    proposals: new ProposalsRepository(storage.db),
    webhooks: new WebhooksRepository(storage.db),
    feeds,
    now,
    jobs: new BackgroundJobs(),
    calendarGuard: allowed === true ? undefined : publicAddressesOnly(allowed || []),
    httpReader: new HttpReader(),
    remembered: new Remembered(),
  };
}

/** A context for a command-line process: use cases write to the database only. */
export function createContext(
  config: Config,
  storage: Storage,
  logger: Logger,
  feeds: readonly Feed[] = [],
): AppContext {
  return { ...baseContext(config, storage, logger, feeds), index: undefined, metrics: undefined };
}

/** A context for a process that serves reads, with its (empty) read index. */
export function createServingContext(
  config: Config,
  storage: Storage,
  logger: Logger,
  feeds: readonly Feed[] = [],
  cursorSecret: Buffer = randomBytes(32),
): ServingContext {
  const base = baseContext(config, storage, logger, feeds);
  const index = new ReadIndex(base.now);
  const freshness: IndexFreshness = { behindSince: undefined };
  const metrics = new Metrics(
    () => {
      const { shown } = index.status;
      return COUNTRIES.map((c) => [c, shown[c]]);
    },
    () => freshness,
  );
  return { ...base, index, freshness, metrics, cursorSecret, memory: new MemoryRelease() };
}
