import { defineConfig } from 'vitest/config';
import SlowFirstSequencer from './test/helpers/sequencer.js';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Server tests open PGlite (WASM Postgres) per file; two cores, so keep parallelism modest.
    pool: 'forks',
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
    // The files of a worker share its modules: each file importing the whole service again, and compiling PGlite's
    // WebAssembly again, took a large share of the suite's time. Suites close what they start and share no state.
    isolate: false,
    reporters: ['default'],
    // One migrated database per engine, copied for every suite's new database (test/helpers/engines.ts).
    globalSetup: ['test/helpers/global-setup.ts'],
    sequence: { sequencer: SlowFirstSequencer },
    // A safety net under the helpers' own setting: nothing a test starts syncs the shipped feeds (which are on
    // the internet). Suites that test syncing point FEEDS_FILE at fixtures or a local HTTP server.
    env: { SYNC_INTERVAL_MINUTES: '0' },
  },
});
