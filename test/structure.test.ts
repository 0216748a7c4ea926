import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The structure stays easy to see: a file is read whole by the next engineer, so none of the project's own code —
 * the service, its tests, scripts and bench — runs over 400 lines. Data files (JSON, fixtures) are not code.
 */
const root = new URL('..', import.meta.url).pathname;
const MAX_LINES = 400;

function codeFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'fixtures' ? [] : codeFiles(path);
    return /\.(ts|mts|js|mjs|cjs)$/.test(name) ? [path] : [];
  });
}

describe('the code is kept in files a person reads whole', () => {
  it(`has no file of code over ${MAX_LINES} lines`, () => {
    const files = ['src', 'test', 'scripts', 'bench', 'bin'].flatMap((dir) => codeFiles(join(root, dir)));
    expect(files.length).toBeGreaterThan(100);
    const long = files
      .map((path) => ({ path: relative(root, path), lines: readFileSync(path, 'utf8').split('\n').length - 1 }))
      .filter((f) => f.lines > MAX_LINES);
    expect(long).toEqual([]);
  });

  it('keeps docs/performance.md to the current figures and their commands: 150 lines at most', () => {
    const lines = readFileSync(join(root, 'docs/performance.md'), 'utf8').split('\n').length - 1;
    expect(lines).toBeLessThanOrEqual(150);
  });
});
