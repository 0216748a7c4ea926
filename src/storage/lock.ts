import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * PGlite runs Postgres inside this process, so its data directory must have exactly one owner.
 * A pid file makes a second process (a CLI while the server runs) fail with a clear message
 * instead of corrupting the files; a stale file from a killed process is taken over.
 */
export class DataDirectoryInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      `The embedded database in ${dataDir} is in use by process ${pid} (probably a running server). ` +
        'Stop it first, or use the admin API of the running server (ADMIN_TOKEN), or point DATABASE_URL at PostgreSQL ' +
        '(`tech-events keys` and `sync` ask a running server themselves).',
    );
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The live process other than this one that holds `dataDir`, if any (a stale pid file names none). */
export function dataDirectoryHolder(dataDir: string): number | undefined {
  let pid: number;
  try {
    pid = Number.parseInt(readFileSync(join(dataDir, PID_FILE), 'utf8'), 10);
  } catch {
    return undefined;
  }
  return Number.isFinite(pid) && pid !== process.pid && isAlive(pid) ? pid : undefined;
}

const PID_FILE = 'tech-events.pid';

export function lockDataDirectory(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, PID_FILE);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, String(process.pid), { flag: 'wx' });
      return () => rmSync(file, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const pid = Number.parseInt(readFileSync(file, 'utf8'), 10);
      if (Number.isFinite(pid) && pid !== process.pid && isAlive(pid)) throw new DataDirectoryInUseError(dataDir, pid);
      rmSync(file, { force: true }); // stale: its owner died without cleaning up
    }
  }
  throw new Error(`Could not lock ${dataDir}`);
}
