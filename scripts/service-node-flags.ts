import { readFileSync } from 'node:fs';

/**
 * The flags node runs the service with, as `bin/tech-events.js` gives them on its `#!` line (and `npm start`, which
 * test/cli.test.ts holds to the same): the bench and the soak start the service as users do.
 */
export function serviceNodeFlags(): string[] {
  const shebang = readFileSync(new URL('../bin/tech-events.js', import.meta.url), 'utf8').split('\n')[0]!;
  const flags = /^#!\/usr\/bin\/env -S node((?: --[\w-]+(?:=\S+)?)*)$/.exec(shebang);
  if (!flags) throw new Error(`bin/tech-events.js: unexpected first line ${shebang}`);
  return flags[1]!.split(' ').filter(Boolean);
}
