import { parse, TYPE } from '@formatjs/icu-messageformat-parser';
import { describe, expect, it } from 'vitest';
import { PLAIN_FIELD_NAMES, PLAIN_FIELDS } from '../src/catalogue/event.js';
import { type Phrase, plainFilterPhrase, type Value } from '../src/catalogue/words.js';
import { LANGUAGES } from '../src/i18n/languages.js';
import { languageName, type Translator, translator } from '../src/i18n/translator.js';
import { search } from '../src/query/engine.js';
import { CatalogueIndex } from '../src/query/index/catalogue-index.js';
import { parseSearchParams } from '../src/query/params.js';
import type { Part } from '../src/query/restate.js';
import { valueText } from '../src/render/phrase.js';
import { describeQuery, sayPart, sayRestatement } from '../src/render/restate.js';

/**
 * The restatement is one structure (query/restate.ts) said in every language by one renderer (i18n/restate.ts):
 * each filter of a query is a part of it, every language says each part with its values' names, and the English
 * sentence is the answers' `understood`.
 */
const NOW = new Date('2025-03-01T09:00:00Z');
const empty = new CatalogueIndex(() => NOW);
empty.load([]);
const restated = (raw: Record<string, string>) => search(empty, parseSearchParams(raw), NOW);

/** Queries covering every kind of part, with the parts each must list. */
const QUERIES: { raw: Record<string, string>; parts: Part['say'][] }[] = [
  {
    raw: { q: 'free online AI meetups in Zürich for founders next week' },
    parts: ['price', 'format', 'subject', 'kind', 'audience', 'place', 'window'],
  },
  {
    raw: {
      q: 'Java conferences in Germany in March',
      topic: 'security',
      format: 'hybrid',
      who: 'founders',
      seniority: 'junior,senior',
      org: 'JUG Berlin',
      lang: 'de,fr',
      access: 'sign-language-or-captions',
      cfp: 'open',
      from: '2025-03-10',
      to: '2025-04-01',
    },
    parts: [
      'formatExactly',
      'subject',
      'topics',
      'kind',
      'for',
      'org',
      'country',
      'plain',
      'plain',
      'cfp',
      'window',
      'starts',
    ],
  },
  {
    raw: { q: 'kotlin gizmo, ideally in English, I live in Munich', city: 'Basel', near: '1' },
    parts: ['subject', 'city', 'home', 'wished', 'words'],
  },
  { raw: { q: 'gizmo wobble', city: 'Bern' }, parts: ['city', 'words'] },
  { raw: { q: '', country: 'all', from: '2025-03-10' }, parts: ['country', 'starts'] },
  {
    raw: { q: 'paid workshops near Basel tonight', to: '2025-03-20' },
    parts: ['price', 'kind', 'place', 'window', 'starts'],
  },
];

/** The names of a part's values in a language, each item of a list apart: what its phrase must contain. */
function namesOf(part: Part, t: Translator): string[] {
  const items = (value: Value | Phrase): (Value | Phrase)[] =>
    typeof value === 'object' && ('or' in value || 'and' in value)
      ? ('or' in value ? value.or : value.and).flatMap(items)
      : [value];
  // A select's value is a case, not a name: the case's words say it.
  const selects = new Set(
    parse(part.phrase.words[t.lang])
      .filter((el) => el.type === TYPE.select)
      .map((el) => (el as { value: string }).value),
  );
  return Object.entries(part.phrase.values ?? {})
    .filter(([name]) => !selects.has(name))
    .flatMap(([, value]) => items(value))
    .map((value) => String(valueText(value, t)));
}

describe('the restatement of a query', () => {
  it('names the languages an event is held in as each language names them itself', () => {
    for (const lang of LANGUAGES)
      for (const code of PLAIN_FIELDS.language.values)
        expect(PLAIN_FIELDS.language.words[lang].labels[code]).toBe(languageName(translator(lang), code));
  });

  it('lists each filter of a query as a part, each plain field among them', () => {
    for (const { raw, parts } of QUERIES)
      expect(
        restated(raw).restatement.parts.map((p) => p.say),
        raw.q,
      ).toEqual(parts);
    const plain = QUERIES.flatMap(({ raw }) => restated(raw).restatement.parts).filter((p) => p.say === 'plain');
    expect(plain.map((p) => p.phrase.words)).toEqual(
      [...PLAIN_FIELD_NAMES].map((field) => plainFilterPhrase(field, []).words),
    );
    // Every value of every plain field has its name in every language (the translator throws on a missing message).
    for (const field of PLAIN_FIELD_NAMES)
      for (const value of PLAIN_FIELDS[field].values as readonly string[])
        for (const lang of LANGUAGES) {
          const part: Part = { say: 'plain', phrase: plainFilterPhrase(field, [value]) };
          expect(sayPart(part, translator(lang)), `${lang} ${field}`).toContain(namesOf(part, translator(lang))[0]);
        }
  });

  it('is said in every language as a sentence naming every value, English being `understood`', () => {
    for (const { raw } of QUERIES) {
      const result = restated(raw);
      expect(sayRestatement(result.restatement, translator('en'))).toBe(describeQuery(result.restatement));
      for (const lang of LANGUAGES) {
        const t = translator(lang);
        const sentence = sayRestatement(result.restatement, t);
        expect(sentence, `${lang} ${raw.q}`).toMatch(/^\p{Lu}/u);
        expect(sentence, `${lang} ${raw.q}`).not.toMatch(/undefined|restate\.|\{|\}|\s\s|, ,|,$/);
        for (const part of result.restatement.parts) {
          expect(sentence.toLocaleLowerCase(), `${lang} ${part.say}`).toContain(sayPart(part, t).toLocaleLowerCase());
          for (const name of namesOf(part, t)) expect(sayPart(part, t), `${lang} ${part.say}`).toContain(name);
        }
      }
    }
  });

  it('says in English what it always said, the dates asked by day, and the event named by its title first', () => {
    expect(describeQuery(restated(QUERIES[0]!.raw).restatement)).toBe(
      'Free online or hybrid AI & ML meetups for founders in or near Zürich, next week (3–9 Mar 2025)',
    );
    expect(describeQuery(restated({ q: '', country: 'all', from: '2025-03-10', to: '2025-03-20' }).restatement)).toBe(
      'Upcoming events in Switzerland, Germany and Austria, starting from Mon, 10 Mar 2025 until Thu, 20 Mar 2025',
    );
    const r = restated({ q: 'IT-Tage', country: 'de' }).restatement;
    expect(sayRestatement({ ...r, titled: 'IT-Tage' }, translator('en'))).toMatch(
      /^The event titled “IT-Tage”, then conferences in Germany/,
    );
    expect(sayRestatement({ ...r, titled: 'IT-Tage' }, translator('de'))).toMatch(
      /^Die Veranstaltung „IT-Tage“, dann /,
    );
  });
});
