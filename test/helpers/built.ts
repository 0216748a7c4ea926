import { execFileSync } from 'node:child_process';
import { cpSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The newest change under `dir` (ms since the epoch). */
function newest(dir: string): number {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) latest = Math.max(latest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return latest;
}

/** Where the suites' copy of the build lives: beside `dist`, so it finds the same files (feeds.json, seed). */
export const TEST_BUILD = '.test-dist';

/**
 * Copies a fresh build for the suites, building `dist` first when any source changed after it was built: the suites
 * run the compiled CLI, which skips compiling every module of the service again in each process they spawn. A copy,
 * as the README's test runs `npm install`, whose build empties `dist` for a while. A clean clone has `dist` from
 * `npm ci` (through `prepare`).
 */
export function prepareTestBuild(root: string): void {
  let built = 0;
  try {
    built = statSync(join(root, 'dist/cli/main.js')).mtimeMs;
  } catch {
    // not built yet
  }
  const sources = Math.max(newest(join(root, 'src')), statSync(join(root, 'tsconfig.build.json')).mtimeMs);
  if (built <= sources) execFileSync('npm', ['run', 'build'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  rmSync(join(root, TEST_BUILD), { recursive: true, force: true });
  cpSync(join(root, 'dist'), join(root, TEST_BUILD), { recursive: true });
}
