import { readFile, stat } from 'node:fs/promises';
import { confsTechImporter } from './confs-tech.js';
import { developersEventsImporter } from './developers-events.js';
import { devopsdaysImporter } from './devopsdays.js';
import { icalImporter } from './ical.js';
import type { Importer } from './importer.js';
import { jsonlImporter } from './jsonl.js';

/** Every source format, by the name `--format` and feeds.json use. */
export const IMPORTERS: Readonly<Record<string, Importer>> = {
  [confsTechImporter.format]: confsTechImporter,
  [devopsdaysImporter.format]: devopsdaysImporter,
  [developersEventsImporter.format]: developersEventsImporter,
  [icalImporter.format]: icalImporter,
  [jsonlImporter.format]: jsonlImporter,
};

export const FORMATS = Object.keys(IMPORTERS);

export function importerFor(format: string): Importer | undefined {
  return Object.hasOwn(IMPORTERS, format) ? IMPORTERS[format] : undefined;
}

/** The input could not be read at all (missing file, network error, HTTP error, too large, too slow). */
export class InputError extends Error {
  /** True when the input does not exist (no such file, HTTP 404 or 410), as opposed to failing to arrive. */
  readonly notFound: boolean;
  constructor(message: string, options: { notFound?: boolean } = {}) {
    super(message);
    this.notFound = options.notFound ?? false;
  }
}

export interface ReadOptions {
  timeoutMs?: number;
  maxBytes?: number;
  /** Aborts a download under way (the service stopping). */
  signal?: AbortSignal;
}

const TIMEOUT_MS = 30_000;
/** A feed over the network: larger than any real event feed, small enough that a wrong URL cannot fill memory. */
const MAX_BYTES = 20 * 1024 * 1024;
/** A local file an operator chose: a 100k-event JSON-lines export is some 40 MB. */
const MAX_FILE_BYTES = 512 * 1024 * 1024;

const mb = (bytes: number) =>
  bytes < 1024 * 1024 ? `${bytes} bytes` : `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;

/** True for inputs read over the network; `webcal:` (how calendars publish subscriptions) means https. */
export const isUrl = (input: string) => /^(?:https?|webcal):\/\//i.test(input);

/** Reads a file, or GETs an http(s)/webcal URL, as UTF-8 text (a byte-order mark dropped). */
export async function readInput(fileOrUrl: string, options: ReadOptions = {}): Promise<string> {
  const text = isUrl(fileOrUrl)
    ? await fetchText(
        fileOrUrl.replace(/^webcal:/i, 'https:'),
        options.timeoutMs ?? TIMEOUT_MS,
        options.maxBytes ?? MAX_BYTES,
        options.signal,
      )
    : await readLocal(fileOrUrl, options.maxBytes ?? MAX_FILE_BYTES);
  return text.replace(/^\uFEFF/, '');
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

async function fetchText(url: string, timeoutMs: number, maxBytes: number, stop?: AbortSignal): Promise<string> {
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = stop ? AbortSignal.any([timeout, stop]) : timeout;
  const fail = (error: unknown): never => {
    if (error instanceof InputError) throw error;
    if (stop?.aborted) throw new InputError(`GET ${url} was stopped`);
    if (timeout.aborted) throw new InputError(`GET ${url} timed out after ${timeoutMs / 1000} s`);
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new InputError(`GET ${url} failed: ${cause?.code ?? cause?.message ?? (error as Error).message}`);
  };
  let response: Response;
  try {
    response = await fetch(url, {
      signal,
      redirect: 'follow',
      headers: { accept: 'text/calendar, application/json, */*' },
    });
  } catch (error) {
    return fail(error);
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => {});
    throw new InputError(
      `GET ${url} answered HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`,
      { notFound: response.status === 404 || response.status === 410 },
    );
  }
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (declared > maxBytes) {
    await response.body?.cancel().catch(() => {});
    throw new InputError(`GET ${url}: the response is larger than ${mb(maxBytes)} (${mb(declared)})`);
  }
  // Counted while streaming: a server may send no length, or a wrong one.
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for await (const chunk of response.body ?? []) {
      size += chunk.byteLength;
      if (size > maxBytes) throw new InputError(`GET ${url}: the response is larger than ${mb(maxBytes)}`);
      chunks.push(chunk);
    }
  } catch (error) {
    await response.body?.cancel().catch(() => {});
    return fail(error);
  }
  return new TextDecoder('utf-8').decode(Buffer.concat(chunks));
}
