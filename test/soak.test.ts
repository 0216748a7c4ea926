import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runNode } from './helpers/process.js';

/** A short run of `npm run soak` (scripts/soak.ts): mixed load on a real server process, nothing lost. */
describe('soak', () => {
  it('serves a mixed read/write load with no error and no lost write; the flooders get well-formed 429s', async () => {
    const { BASE_URL: _b, DATABASE_URL: _d, DATA_DIR: _dd, ...env } = process.env;
    const run = await runNode(
      ['--import', 'tsx', resolve(ROOT, 'scripts/soak.ts')],
      {
        ...env,
        SOAK_SECONDS: '5',
        SOAK_READERS: '6',
        SOAK_WRITERS: '3',
        SOAK_KEYS: '6',
        // Lower limits than the defaults, so that the flooders reach theirs within 5 s even on a slow, busy machine
        // (the other readers spread over 2,000 addresses and stay far below).
        RATE_LIMIT_READS_PER_MINUTE: '20',
        RATE_LIMIT_WRITES_PER_MINUTE: '60',
      },
      90_000,
    );
    const output = `${run.stdout}\n${run.stderr}`;
    expect(run.status, output).toBe(0);
    const line = run.stdout.split('\n').find((l) => l.startsWith('SOAK '));
    expect(line, output).toBeDefined();
    const figures = JSON.parse(line!.slice(5));
    console.log(`soak (5 s): ${line}`);
    expect(figures.errors).toBe(0);
    expect(figures.writesLost).toBe(0);
    expect(figures.duplicates).toBe(0);
    expect(figures.requests).toBeGreaterThan(100);
    expect(figures.writesAcknowledged).toBeGreaterThan(10);
    expect(figures.rateLimited.reads + figures.rateLimited.writes).toBeGreaterThan(0);
    expect(run.stdout).toMatch(/^requests served: +\d+/m);
    expect(run.stdout).toMatch(/^errors: +0$/m);
  }, 120_000);
});
