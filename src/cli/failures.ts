import { ServiceError } from '../catalogue/errors.js';
import { ConfigError } from '../config.js';
import { FeedsFileError, InputError } from '../importers/input-error.js';
import { DataDirectoryInUseError } from '../storage/lock.js';

/**
 * What the user is told of a command that failed: the service's coded errors (well-formed arguments the catalogue
 * refuses, such as an unknown key) with their code, errors of the user's setup as they are worded; undefined for a
 * fault of ours, printed whole.
 */
export function failureMessage(error: unknown): string | undefined {
  if (error instanceof ServiceError) return `${error.message} (${error.code})`;
  if (
    error instanceof DataDirectoryInUseError ||
    error instanceof ConfigError ||
    error instanceof InputError ||
    error instanceof FeedsFileError
  )
    return error.message;
  return undefined;
}
