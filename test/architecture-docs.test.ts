import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ReadIndex } from '../src/query/read-index.js';

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

/** The text of a section of a markdown document, from its heading to the next of the same level or higher. */
function section(doc: string, heading: string): string {
  const start = doc.indexOf(`${heading}\n`);
  expect(start, heading).toBeGreaterThanOrEqual(0);
  const level = heading.split(' ')[0]!;
  const next = doc.slice(start + heading.length).search(new RegExp(`\\n#{1,${level.length}} `));
  return next < 0 ? doc.slice(start) : doc.slice(start, start + heading.length + next);
}

describe('docs/architecture.md says what the read index and ranking are', () => {
  it('lists the door’s face as the ReadIndex has it: every member, and no other', () => {
    const face = section(architecture, '### The door')
      .split('\n')
      .filter((line) => /^- \*\*|^ {2}\S/.test(line))
      .join(' ');
    // Member names in code, the values of `status.state` aside.
    const states = new Set(['loading', 'preparing', 'ready']);
    const named = new Set([...face.matchAll(/`([a-z]\w*)[(`]/g)].map((m) => m[1]).filter((name) => !states.has(name!)));
    const members = Object.getOwnPropertyNames(ReadIndex.prototype).filter((name) => name !== 'constructor');
    expect([...named].sort()).toEqual(members.sort());
  });

  it('names the files where a place weighs against a topic: the first holds the weights, the second both facets', async () => {
    const sentence = architecture
      .slice(architecture.indexOf('**How a place weighs against a topic**'))
      .split('\n\n')[0]!;
    const [weightsPath, facetsPath] = [...sentence.matchAll(/`(src\/[\w/.-]+\.ts)`/g)].map((m) => m[1]!);
    expect(facetsPath).toBeDefined();
    const { WEIGHT } = await import(join(root, weightsPath!));
    expect(WEIGHT.place).toBeGreaterThan(0);
    expect(WEIGHT.field).toBeGreaterThan(0);
    const { FACETS } = await import(join(root, facetsPath!));
    const names = (FACETS as { name: string }[]).map((f) => f.name);
    expect(names).toEqual(expect.arrayContaining(['place', 'topic']));
  });
});

describe('docs/sources.md says what the feeds file ships', () => {
  const sources = readFileSync(join(root, 'docs/sources.md'), 'utf8');
  const feeds = JSON.parse(readFileSync(join(root, 'feeds.json'), 'utf8')) as {
    source: string;
    format: string;
    seed?: string;
  }[];

  it('lists as shipped snapshots exactly the seeds the feeds name, and the calendars have none', () => {
    const shipped = section(sources, '## Shipped snapshots');
    const listed = [...shipped.matchAll(/^\| `(seed\/[^`]+)`/gm)].map((m) => m[1]);
    const seeds = feeds.filter((f) => f.seed).map((f) => `seed/${f.seed!.replace(/^(\.\/)?seed\//, '')}`);
    expect(listed.sort()).toEqual(seeds.sort());
    for (const seed of seeds) expect(existsSync(join(root, seed)), seed).toBe(true);
    expect(feeds.filter((f) => f.format === 'ical' && f.seed)).toEqual([]);
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
