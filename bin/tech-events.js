#!/usr/bin/env -S node --max-semi-space-size=32 --heap-growing-percent=20 --no-allocation-site-pretenuring --liftoff-only
// The flag gives short-lived request data room in the young generation (docs/operations.md says why).
// The compiled CLI (built by `npm run build`, which `npm ci` runs through `prepare`).
import { existsSync } from 'node:fs';

const entry = new URL('../dist/cli/main.js', import.meta.url);
if (!existsSync(entry)) {
  console.error('tech-events is not built yet: run `npm run build` (npm ci does it through prepare).');
  process.exit(1);
}
await import(entry.href);
