import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runNode } from './helpers/process.js';

/**
 * A short run of `npm run soak` (scripts/soak.ts): mixed load with a crowd of connections at the end, on real server
 * processes, with nothing lost, duplicated or diverged. Once, on the harder of the engines at hand: two nodes on one
 * PostgreSQL database when TEST_DATABASE_URL is set (as in CI), else one node on PGlite (`npm run soak`'s default).
 */
const engine = process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite';
describe(`soak on ${engine}`, () => {
  it('serves a mixed load and a crowd with no error, no lost or diverged write, quick connects and polite refusals', async () => {
    const { BASE_URL: _b, DATABASE_URL: _d, DATA_DIR: _dd, SOAK_DATABASE_URL: _s, ...env } = process.env;
    const run = await runNode(
      ['--import', 'tsx', resolve(ROOT, 'scripts/soak.ts')],
      {
        ...env,
        ...(engine === 'postgres' ? { SOAK_DATABASE_URL: process.env.TEST_DATABASE_URL! } : {}),
        SOAK_SECONDS: '5',
        SOAK_READERS: '6',
        SOAK_WRITERS: '3',
        SOAK_KEYS: '6',
        SOAK_BURST_CONNECTIONS: '300',
        SOAK_BURST_SECONDS: '3',
        // The new client's p99 under the crowd and the longest wait of a read are printed, not checked: not met yet
        // on a busy two-core machine (docs/performance.md, "Overload"); `npm run soak` fails on them.
        SOAK_FAIRNESS: 'report',
        // Lower limits than the defaults, so that the flooders reach theirs within 5 s even on a slow, busy machine
        // (the other readers spread over 2,000 addresses and stay far below).
        RATE_LIMIT_READS_PER_MINUTE: '10',
        RATE_LIMIT_WRITES_PER_MINUTE: '60',
      },
      150_000,
    );
    const output = `${run.stdout}\n${run.stderr}`;
    expect(run.status, output).toBe(0);
    const line = run.stdout.split('\n').find((l) => l.startsWith('SOAK '));
    expect(line, output).toBeDefined();
    const figures = JSON.parse(line!.slice(5));
    console.log(`soak on ${engine} (5 s): ${line}`);
    expect(figures.nodes).toBe(engine === 'postgres' ? 2 : 1);
    expect(figures.errors).toBe(0);
    expect(figures.writesLost).toBe(0);
    expect(figures.duplicates).toBe(0);
    expect(figures.diverged).toBe(0);
    expect(figures.requests).toBeGreaterThan(50);
    expect(figures.writesAcknowledged).toBeGreaterThan(10);
    expect(figures.rateLimited.reads + figures.rateLimited.writes).toBeGreaterThan(0);
    // The crowd: every request answered or refused with Retry-After, and a new client connects within a second.
    expect(figures.burst.failed).toBe(0);
    expect(figures.burst.probeConnectMs.max).toBeLessThan(1000);
    expect(figures.burst.answered + figures.burst.refused[429] + figures.burst.refused[503]).toBeGreaterThan(0);
    expect(run.stdout).toMatch(/^requests served: +\d+/m);
    expect(run.stdout).toMatch(/^errors: +0$/m);
  }, 180_000);
});
