#!/usr/bin/env -S node --concurrent-marking-max-worker-num=1
// One thread marks the heap beside the serving one (docs/operations.md, Node flags, says why;
// scripts/service-node-flags.ts reads the flags from this line).
// The compiled CLI (built by `npm run build`, which `npm ci` runs through `prepare`).
import { existsSync } from 'node:fs';

const entry = new URL('../dist/cli/main.js', import.meta.url);
if (!existsSync(entry)) {
  console.error('tech-events is not built yet: run `npm run build` (npm ci does it through prepare).');
  process.exit(1);
}
await import(entry.href);
