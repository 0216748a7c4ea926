import type { Logger } from 'pino';
import type { Config } from './config.js';
import { CatalogueIndex } from './query/catalogue-index.js';
import type { Storage } from './storage/database.js';
import { EventsRepository } from './storage/events.repository.js';
import { KeysRepository } from './storage/keys.repository.js';
import { RegistrationsRepository } from './storage/registrations.repository.js';

/** The dependencies of every use case, built once at start-up and passed along (no globals, no container). */
export interface AppContext {
  config: Config;
  storage: Storage;
  events: EventsRepository;
  keys: KeysRepository;
  registrations: RegistrationsRepository;
  logger: Logger;
  /** The in-memory read index every query runs on. */
  index: CatalogueIndex;
  /** The service's notion of "now" (fixed by TECH_EVENTS_NOW in tests and demos). */
  now(): Date;
}

export function createContext(config: Config, storage: Storage, logger: Logger): AppContext {
  const fixed = config.fixedNow;
  const now = fixed ? () => new Date(fixed.getTime()) : () => new Date();
  return {
    config,
    storage,
    logger,
    events: new EventsRepository(storage.db),
    keys: new KeysRepository(storage.db),
    registrations: new RegistrationsRepository(storage.db),
    index: new CatalogueIndex(now),
    now,
  };
}
