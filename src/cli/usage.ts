/** A command typed wrong: the CLI prints the message and the usage, and exits 2. */
export class UsageError extends Error {}

/** parseArgs refuses unknown options with a TypeError: a usage error for the user. */
export function strictArgs<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}
