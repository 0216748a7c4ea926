#!/usr/bin/env -S node --max-semi-space-size=32 --heap-growing-percent=20 --no-allocation-site-pretenuring --liftoff-only --concurrent-marking-max-worker-num=1
// The flags size and steer V8's collector and compile PGlite's WebAssembly with its baseline compiler only
// (docs/operations.md, Node flags, says why each; scripts/service-node-flags.ts reads them from this line).
// The compiled CLI (built by `npm run build`, which `npm ci` runs through `prepare`).
import { existsSync } from 'node:fs';

const entry = new URL('../dist/cli/main.js', import.meta.url);
if (!existsSync(entry)) {
  console.error('tech-events is not built yet: run `npm run build` (npm ci does it through prepare).');
  process.exit(1);
}
await import(entry.href);
