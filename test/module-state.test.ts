import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * No module of the service keeps mutable state of its own: state lives in the object that owns its lifetime (the
 * read index, a shard, the serving context, a query) and is passed in. A module's top level may hold constants and
 * constant tables, typed read-only (`ReadonlyMap`, `ReadonlySet`, `readonly T[]`), never a top-level `let`/`var` or
 * a mutable collection or cache. The allow-list names what may stay, each with why.
 */
const root = new URL('..', import.meta.url).pathname;

/**
 * What may stay, by file and name. Each is a bounded memo of a pure function of immutable input (a word, an event's
 * revision, a day): it changes no answer, only how soon it comes, and what it memoizes is asked for by pure functions
 * (folding, the lexicon, renderers) called from everywhere, with no owner to pass it in.
 */
const ALLOWED: Record<string, string> = {
  // The split of each word of titles and prompts that may be a German compound ("Sicherheitskonferenz").
  'src/catalogue/lexicon.ts compounds': 'memo of splitCompound',
  // Texts of an event's revision or of a day, per language, for the pages and the calendars.
  'src/i18n/dates.ts whenTexts': 'render memo',
  'src/i18n/dates.ts startDays': 'render memo',
  'src/i18n/dates.ts machineTimes': 'render memo',
  'src/i18n/dates.ts dayTexts': 'render memo',
  'src/i18n/dates.ts rangeFormats': 'Intl formats by locale and zone',
  'src/render/when.ts whenTexts': 'render memo',
  'src/render/ical.ts vevents': 'render memo',
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.ts$/.test(name) ? [path] : [];
  });
}

/** A top-level `let`/`var`; a top-level const made a mutable collection, cache or empty literal, not typed read-only. */
const MUTABLE_LET = /^(?:export\s+)?(?:let|var)\s+(\w+)/;
const MUTABLE_CONST =
  /^(?:export\s+)?const\s+(\w+)(?:\s*:\s*([^=]+))?\s*=\s*(?:new\s+(?:Map|Set|WeakMap|WeakSet|LRUCache|Array|RecentMemo)\b|\[\s*\]|\{\s*\})/;

/** The names a module's source declares as mutable state at its top level. */
function moduleState(source: string): string[] {
  return source.split('\n').flatMap((line) => {
    const declared = MUTABLE_LET.exec(line);
    if (declared) return [declared[1]!];
    const m = MUTABLE_CONST.exec(line);
    return m !== null && !/^(?:Readonly|readonly\s)/.test((m[2] ?? '').trim()) ? [m[1]!] : [];
  });
}

describe('modules keep no mutable state of their own', () => {
  it('tells a top-level let, a mutable collection or cache, from constants and read-only tables', () => {
    expect(moduleState('let count = 0;\nvar old = 1;\nexport let x: number | undefined;')).toHaveLength(3);
    expect(moduleState('const seen = new Set<string>();\nconst memo = new Map();\nconst rows = [];')).toHaveLength(3);
    expect(moduleState('const cache = new LRUCache<string, number>({ max: 9 });')).toHaveLength(1);
    const constants = [
      "const WORDS: ReadonlySet<string> = new Set(['a', 'b']);",
      'const BY_SLUG: ReadonlyMap<string, number> = new Map(PAIRS);',
      'const NONE: readonly string[] = [];',
      'const LIMIT = 20;',
      '  let local = 0;',
    ];
    expect(moduleState(constants.join('\n'))).toEqual([]);
    expect(moduleState('export const seen = new WeakSet<object>();')).toEqual(['seen']);
  });

  it('holds in every module of src', () => {
    const found = sourceFiles(join(root, 'src')).flatMap((path) => {
      const file = relative(root, path);
      return moduleState(readFileSync(path, 'utf8'))
        .map((name) => `${file} ${name}`)
        .filter((declared) => !(declared in ALLOWED));
    });
    expect(found).toEqual([]);
  });

  it('allows only what is there', () => {
    const declared = new Set(
      sourceFiles(join(root, 'src')).flatMap((path) =>
        moduleState(readFileSync(path, 'utf8')).map((name) => `${relative(root, path)} ${name}`),
      ),
    );
    expect(Object.keys(ALLOWED).filter((entry) => !declared.has(entry))).toEqual([]);
  });
});
