/** The input could not be read at all (missing file, network error, HTTP error, too large, too slow). */
export class InputError extends Error {
  /** True when the input does not exist (no such file, HTTP 404 or 410), as opposed to failing to arrive. */
  readonly notFound: boolean;
  /** True when the address was refused before any request (a private network, a scheme not read). */
  readonly refused: boolean;
  /** How long the server asked us to wait (429 or 503 with `Retry-After`), in milliseconds. */
  readonly retryAfterMs: number | undefined;
  constructor(message: string, options: { notFound?: boolean; refused?: boolean; retryAfterMs?: number } = {}) {
    super(message);
    this.notFound = options.notFound ?? false;
    this.refused = options.refused ?? false;
    this.retryAfterMs = options.retryAfterMs;
  }
}

/** The feeds file is missing, invalid or names a seed or source twice. */
export class FeedsFileError extends Error {}
