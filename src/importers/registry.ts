import { readFile, stat } from 'node:fs/promises';
import { bevyImporter } from './bevy.js';
import { confsTechImporter } from './confs-tech.js';
import { developersEventsImporter } from './developers-events.js';
import { devopsdaysImporter } from './devopsdays.js';
import { SOURCE_FORMATS, type SourceFormat } from './formats.js';
import { type AddressGuard, HttpReader, mb, type Validators } from './http-reader.js';
import { icalImporter } from './ical.js';
import type { Importer } from './importer.js';
import { InputError } from './input-error.js';
import { jsonlImporter } from './jsonl.js';

export { InputError };

/** The importer of every source format (see formats.ts), each under the name it gives itself (`format`). */
export const IMPORTERS: Readonly<Record<SourceFormat, Importer>> = {
  bevy: bevyImporter,
  'confs-tech': confsTechImporter,
  devopsdays: devopsdaysImporter,
  'developers-events': developersEventsImporter,
  ical: icalImporter,
  jsonl: jsonlImporter,
};

export const FORMATS: readonly string[] = SOURCE_FORMATS;

export function importerFor(format: string): Importer | undefined {
  return Object.hasOwn(IMPORTERS, format) ? IMPORTERS[format as SourceFormat] : undefined;
}

export interface ReadOptions {
  timeoutMs?: number;
  maxBytes?: number;
  /** Aborts a download under way (the service stopping). */
  signal?: AbortSignal;
  /** Validators of the copy held: a URL that has not changed since answers `undefined`. */
  validators?: Validators;
  /** Sees the validators a URL was served with, to send next time. */
  onValidators?: (validators: Validators) => void;
  /** Names the service to the servers it reads (see userAgentOf). */
  userAgent?: string;
  /** Addresses a URL may lead to; absent, any. */
  guard?: AddressGuard;
  /** The service's reader (its turns per host, its connections); absent, one made for this read alone. */
  reader?: HttpReader;
}

const TIMEOUT_MS = 30_000;
/** A feed over the network: larger than any real event feed, small enough that a wrong URL cannot fill memory. */
const MAX_BYTES = 20 * 1024 * 1024;
/** A local file an operator chose: room for an export of a catalogue many times the size of ours. */
const MAX_FILE_BYTES = 512 * 1024 * 1024;

/** True for inputs read over the network; `webcal:` (how calendars publish subscriptions) means https. */
export const isUrl = (input: string) => /^(?:https?|webcal):\/\//i.test(input);

/** How the service names itself to the servers it reads: the product, and where to find out about it. */
export const userAgentOf = (baseUrl: string) => `tech-events/1 (+${baseUrl}/sources)`;

/**
 * Reads a file, or GETs an http(s)/webcal URL (see HttpReader.get), as UTF-8 text (a byte-order mark dropped). With
 * validators, a URL that answers 304 Not Modified reads as `undefined`.
 */
export async function readInput(
  fileOrUrl: string,
  options: ReadOptions & { validators: Validators },
): Promise<string | undefined>;
export async function readInput(fileOrUrl: string, options?: ReadOptions): Promise<string>;
export async function readInput(fileOrUrl: string, options: ReadOptions = {}): Promise<string | undefined> {
  if (!isUrl(fileOrUrl)) return (await readLocal(fileOrUrl, options.maxBytes ?? MAX_FILE_BYTES)).replace(/^\uFEFF/, '');
  const reader = options.reader ?? new HttpReader();
  const read = await reader
    .get(fileOrUrl, {
      timeoutMs: options.timeoutMs ?? TIMEOUT_MS,
      maxBytes: options.maxBytes ?? MAX_BYTES,
      signal: options.signal,
      validators: options.validators,
      guard: options.guard,
      userAgent: options.userAgent ?? 'tech-events/1',
    })
    .finally(() => (options.reader ? undefined : reader.close()));
  if (read.notModified) return undefined;
  options.onValidators?.(read.validators);
  return read.text.replace(/^\uFEFF/, '');
}

async function readLocal(path: string, maxBytes: number): Promise<string> {
  try {
    const info = await stat(path);
    if (!info.isFile()) throw new InputError(`${path} is not a file`);
    if (info.size > maxBytes) throw new InputError(`${path} is larger than ${mb(maxBytes)} (${mb(info.size)})`);
    return await readFile(path, 'utf8');
  } catch (error) {
    if (error instanceof InputError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new InputError(
      code === 'ENOENT' ? `${path}: no such file` : `cannot read ${path}: ${(error as Error).message}`,
      { notFound: code === 'ENOENT' },
    );
  }
}
