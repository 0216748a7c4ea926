import { CALENDARS_USAGE, calendarsCommand } from './calendars.js';
import { IMPORT_USAGE, importCommand } from './import.js';
import { KEYS_USAGE, keysCommand } from './keys.js';
import { PROPOSALS_USAGE, proposalsCommand } from './proposals.js';
import { RSVPS_USAGE, rsvpsCommand } from './rsvps.js';
import { SERVE_USAGE, serveCommand } from './serve.js';
import { SYNC_USAGE, syncCommand } from './sync.js';
import { UsageError } from './usage.js';

// Each command module checks its arguments first and loads what its work needs only then, so that the CLI and
// a usage error answer without loading the service.
const COMMANDS: Record<string, (args: string[]) => Promise<void>> = {
  serve: serveCommand,
  keys: keysCommand,
  import: importCommand,
  sync: syncCommand,
  calendars: calendarsCommand,
  proposals: proposalsCommand,
  rsvps: rsvpsCommand,
};

const USAGE = `Usage: tech-events <command>

${SERVE_USAGE}
${KEYS_USAGE}
${IMPORT_USAGE}
${SYNC_USAGE}
${CALENDARS_USAGE}
${PROPOSALS_USAGE}
${RSVPS_USAGE}

Environment: PORT, HOST, BASE_URL, DATA_DIR (embedded engine, default ./data),
DATABASE_URL (PostgreSQL instead), ADMIN_TOKEN, TECH_EVENTS_NOW, LOG_LEVEL, FEEDS_FILE,
SYNC_INTERVAL_MINUTES, RATE_LIMIT_WRITES_PER_MINUTE, RATE_LIMIT_READS_PER_MINUTE,
RATE_LIMIT_BATCH_ITEMS_PER_MINUTE, RATE_LIMIT_PROPOSALS_PER_HOUR, ATTENDEES_PER_HOUR, TRUST_PROXY,
REQUEST_TIMEOUT_MS, MCP_ALLOWED_HOSTS, MCP_ALLOWED_ORIGINS — see docs/operations.md.`;

async function main(argv: string[]): Promise<void> {
  const [command, ...args] = argv;
  if (command === undefined || command === 'help' || command === '--help') {
    console.log(USAGE);
    return;
  }
  const run = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
  if (!run) throw new UsageError(`Unknown command "${command}"`);
  await run(args);
}

main(process.argv.slice(2)).catch(async (error: unknown) => {
  if (error instanceof UsageError) {
    console.error(`${error.message}\n\n${USAGE}`);
    process.exit(2);
  }
  const { failureMessage } = await import('./failures.js');
  console.error(failureMessage(error) ?? error);
  process.exit(1);
});
