import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * docs/architecture.md's layout table is where a newcomer looks first: every file it names must exist where it says,
 * and every folder of src/ must have a row. Comments cite the project's own contract (docs/contract.md), never the
 * numbered sections of a document that is not in the repository.
 */
const root = new URL('..', import.meta.url).pathname;
const architecture = readFileSync(join(root, 'docs/architecture.md'), 'utf8');

function layoutRows(): { paths: string[]; concern: string }[] {
  const start = architecture.indexOf('| Path | Concern |');
  expect(start).toBeGreaterThan(0);
  const rows: { paths: string[]; concern: string }[] = [];
  for (const line of architecture.slice(start).split('\n').slice(2)) {
    if (!line.startsWith('|')) break;
    const [, first = '', concern = ''] = line.split('|');
    rows.push({ paths: [...first.matchAll(/`([^`]+)`/g)].map((m) => m[1] as string), concern });
  }
  return rows;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

describe('docs/architecture.md says what the code holds', () => {
  const rows = layoutRows();

  it('names only paths that exist, and in each row only files its folder holds', () => {
    expect(rows.length).toBeGreaterThan(10);
    for (const { paths, concern } of rows) {
      for (const path of paths) expect(existsSync(join(root, path)), `${path} in the layout table`).toBe(true);
      const folders = paths.filter((p) => p.startsWith('src/') && !p.endsWith('.ts'));
      if (folders.length === 0) continue;
      const names = new Set(folders.flatMap((f) => filesUnder(join(root, f)).map((p) => p.split('/').pop())));
      for (const [, file] of concern.matchAll(/`([\w.-]+\.ts)`/g))
        expect(names.has(file), `${file} named in the row of ${folders.join(', ')}`).toBe(true);
    }
  });

  it('gives every folder and top-level module of src/ a row', () => {
    const named = new Set(rows.flatMap((r) => r.paths));
    for (const entry of readdirSync(join(root, 'src'))) {
      if (entry.endsWith('.test.ts')) continue;
      expect(named.has(`src/${entry}`), `src/${entry} has no row in the layout table`).toBe(true);
    }
  });

  it('has no stray table rows outside a table', () => {
    const lines = architecture.split('\n');
    lines.forEach((line, i) => {
      if (!line.startsWith('|')) return;
      const before = lines[i - 1] ?? '';
      const after = lines[i + 1] ?? '';
      const inTable = before.startsWith('|') || (after.startsWith('|') && /^\|[-| :]+\|$/.test(after));
      expect(inTable, `line ${i + 1} is a table row standing alone: ${line.slice(0, 60)}`).toBe(true);
    });
  });
});

describe('comments cite what the repository holds', () => {
  it('cite no numbered section of a spec outside the repository', () => {
    const offenders = filesUnder(join(root, 'src'))
      .filter((p) => p.endsWith('.ts'))
      .flatMap((p) =>
        readFileSync(p, 'utf8')
          .split('\n')
          .map((line, i) => ({ line, at: `${p.slice(root.length)}:${i + 1}` }))
          .filter(({ line }) => /\bspec §/i.test(line)),
      )
      .map(({ at }) => at);
    expect(offenders).toEqual([]);
  });
});
