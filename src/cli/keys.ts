import { parseArgs } from 'node:util';
import { GRACE_MESSAGE, parseGrace } from '../auth/duration.js';
import { type Country, isCountry } from '../places/countries.js';
import type { KeySummary } from '../use-cases/keys.js';
import { onDatabaseOrService } from './database-or-service.js';
import { strictArgs, UsageError } from './usage.js';

export const KEYS_USAGE = `  keys create --name <host name> [--country ch|de|at]
                                            issue a host API key (printed once, as the last line)
  keys list                                 list keys (never their secrets)
  keys revoke <id>                          revoke a key
  keys rotate <id> [--grace <duration>]     give a key a new secret (printed once, as the last line); its
                                            events stay; the old secret stops now, or after e.g. 2h`;

type KeysCommand =
  | { action: 'create'; name: string; country: Country }
  | { action: 'list' }
  | { action: 'revoke'; id: string }
  | { action: 'rotate'; id: string; graceSeconds: number };

/** Validates the arguments before the database is opened, so a typo fails fast. */
function parseKeysCommand(args: string[]): KeysCommand {
  const [action, ...rest] = args;
  if (action === 'create') {
    const { values } = strictArgs(() =>
      parseArgs({ args: rest, options: { name: { type: 'string' }, country: { type: 'string' } } }),
    );
    const name = values.name?.trim();
    if (!name) throw new UsageError('keys create needs --name <host name>');
    const country = values.country ?? 'ch';
    if (!isCountry(country)) throw new UsageError('--country must be ch, de or at');
    return { action, name, country };
  }
  if (action === 'list') return { action };
  if (action === 'revoke') {
    if (!rest[0]) throw new UsageError('keys revoke needs the key id');
    return { action, id: rest[0] };
  }
  if (action === 'rotate') {
    const { values, positionals } = strictArgs(() =>
      parseArgs({ args: rest, allowPositionals: true, options: { grace: { type: 'string' } } }),
    );
    if (positionals.length !== 1) throw new UsageError('keys rotate needs exactly one key id');
    const graceSeconds = values.grace === undefined ? 0 : parseGrace(values.grace);
    if (graceSeconds === undefined) throw new UsageError(`--grace ${GRACE_MESSAGE}`);
    return { action, id: positionals[0]!, graceSeconds };
  }
  throw new UsageError(`Unknown keys command "${action ?? ''}"`);
}

/** Each keys command on the database, or through the running service that owns the embedded one. */
export async function keysCommand(args: string[]): Promise<void> {
  const command = parseKeysCommand(args);
  if (command.action === 'create') {
    const { name, country } = command;
    const { summary, key } = await onDatabaseOrService({ command: 'keys.create', name, country });
    console.log(`Created key ${summary.id} for "${summary.name}" (${summary.country}). It is shown only once:`);
    console.log(key);
  } else if (command.action === 'list') {
    const list = await onDatabaseOrService({ command: 'keys.list' });
    if (list.length === 0) console.log('No keys.');
    for (const k of list) console.log(`${k.id}\t${k.country}\t${keyState(k)}\t${k.name}`);
  } else if (command.action === 'rotate') {
    const { id, graceSeconds } = command;
    const { summary, key } = await onDatabaseOrService({ command: 'keys.rotate', id, graceSeconds });
    const previous = summary.previousSecretExpiresAt
      ? `The previous secret works until ${summary.previousSecretExpiresAt}.`
      : 'The previous secret no longer works.';
    console.log(`Rotated key ${summary.id} of "${summary.name}". ${previous} The new key is shown only once:`);
    console.log(key);
  } else {
    const { id } = command;
    const { changed } = await onDatabaseOrService({ command: 'keys.revoke', id });
    console.log(changed ? `Revoked key ${id}.` : `Key ${id} was already revoked.`);
  }
}

function keyState(k: KeySummary): string {
  if (k.revokedAt) return `revoked ${k.revokedAt}`;
  return k.previousSecretExpiresAt ? `active, previous secret until ${k.previousSecretExpiresAt}` : 'active';
}
