import { type MessageFormatElement, parse, TYPE } from '@formatjs/icu-messageformat-parser';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../src/catalogue/errors.js';
import type { CatalogueEvent } from '../src/catalogue/event.js';
import { EVENT_KINDS, FORMATS, SENIORITIES, TOPIC_SLUGS } from '../src/catalogue/taxonomy.js';
import type { Phrase } from '../src/catalogue/words.js';
import { dayHeading, formatWhen, periodOf } from '../src/i18n/dates.js';
import { chooseLanguage, LANGUAGES, negotiateLanguage } from '../src/i18n/languages.js';
import { en } from '../src/i18n/messages/en.js';
import { MESSAGES } from '../src/i18n/messages/index.js';
import { translator } from '../src/i18n/translator.js';
import { search } from '../src/query/engine.js';
import { CatalogueIndex } from '../src/query/index/catalogue-index.js';
import { parseSearchParams } from '../src/query/params.js';
import { DIFFERS, RESTATE, SAID } from '../src/query/ranking/said.js';
import { calendarLinks, mapLink } from '../src/render/html/calendar-links.js';
import { cfpNote, languagesText } from '../src/render/html/event-extras.js';
import { renderSearchPage } from '../src/render/html/search-page.js';
import { sayPhrase } from '../src/render/phrase.js';
import { demoCatalogueEvents } from './helpers/demo-events.js';

/** Each argument of a message with its kind (and a select's or plural's cases), to compare languages. */
function argumentsOf(elements: MessageFormatElement[], out = new Map<string, string>()): Map<string, string> {
  for (const el of elements) {
    if (el.type === TYPE.literal || el.type === TYPE.pound || el.type === TYPE.tag) continue;
    const kind =
      el.type === TYPE.select
        ? `select(${Object.keys(el.options).sort().join(',')})`
        : el.type === TYPE.plural
          ? 'plural'
          : el.type === TYPE.number
            ? 'number'
            : el.type === TYPE.date || el.type === TYPE.time
              ? 'date'
              : 'argument';
    // A plain argument and a number take the same value; plurals and selects must agree exactly.
    const previous = out.get(el.value);
    if (!previous || previous === 'argument') out.set(el.value, kind === 'number' ? 'argument' : kind);
    if (el.type === TYPE.select || el.type === TYPE.plural)
      for (const option of Object.values(el.options)) argumentsOf(option.value, out);
  }
  return out;
}

/** The engine's own words (query/ranking/said.ts), by a name of their own. */
const ENGINE_WORDS = [
  ...Object.entries(SAID).map(([id, words]) => [`said.${id}`, words] as const),
  ...Object.entries(DIFFERS).map(([id, words]) => [`differs.${id}`, words] as const),
  ...Object.entries(RESTATE).map(([id, words]) => [`restate.${id}`, words] as const),
];

describe('message catalogue', () => {
  it('has every message in every language, no more, each compiling with the same arguments as English', () => {
    const ids = Object.keys(en).sort();
    for (const lang of LANGUAGES) {
      const messages = MESSAGES[lang] as Record<string, string>;
      expect(Object.keys(messages).sort(), lang).toEqual(ids);
      for (const id of ids) {
        const message = messages[id]!;
        expect(message.trim(), `${lang} ${id}`).not.toBe('');
        const ast = parse(message); // throws on a syntax error
        expect(Object.fromEntries(argumentsOf(ast)), `${lang} ${id}`).toEqual(
          Object.fromEntries(argumentsOf(parse(en[id as keyof typeof en]))),
        );
      }
    }
  });

  it('has the engine’s words in every language, each compiling with the same arguments as English', () => {
    for (const [id, words] of ENGINE_WORDS)
      for (const lang of LANGUAGES)
        expect(Object.fromEntries(argumentsOf(parse(words[lang]))), `${lang} ${id}`).toEqual(
          Object.fromEntries(argumentsOf(parse(words.en))),
        );
  });

  it('writes French with a no-break space before : ; ? ! and inside guillemets, in every message', () => {
    const space = /[\u00a0\u202f]/;
    let checked = 0;
    const french = [
      ...Object.entries(MESSAGES.fr as Record<string, string>),
      ...ENGINE_WORDS.map(([id, w]) => [id, w.fr] as const),
    ];
    for (const [id, text] of french) {
      for (const m of [...text.matchAll(/(.)([:;?!»])/gu), ...text.matchAll(/«(.)/gu)]) {
        checked++;
        expect(m[1], `fr ${id}: ${text}`).toMatch(space);
      }
    }
    // The catalogue has such punctuation (“Lieu :”, « … »): none found would mean the check looked at nothing.
    expect(checked).toBeGreaterThan(10);
  });

  it('names every topic, format, kind and seniority level of the taxonomy in every language, each apart', () => {
    // The translator throws on a missing message: what can go wrong is a name that is blank or another's (a select
    // falling to its `other` case, a name copied), so each is held to be visible and distinct within its language.
    const names = <T extends string>(lang: (typeof LANGUAGES)[number], ids: readonly T[], name: (id: T) => string) => {
      const shown = ids.map(name);
      for (const [i, text] of shown.entries()) expect(text, `${lang} ${ids[i]}`).toMatch(/\p{L}/u);
      expect(new Set(shown).size, `${lang}: ${shown.join(' | ')}`).toBe(ids.length);
    };
    for (const lang of LANGUAGES) {
      const t = translator(lang);
      names(lang, TOPIC_SLUGS, (slug) => t.t(`topic.${slug}`));
      names(lang, FORMATS, (format) => t.t(`format.${format}`));
      names(lang, EVENT_KINDS, (kind) => t.t(`kind.${kind}`));
      names(lang, EVENT_KINDS, (kind) => t.say(RESTATE.kinds, { kind }));
      names(lang, SENIORITIES, (level) => t.t('restate.level', { level }));
    }
  });

  it('formats plurals and numbers in each language', () => {
    expect(translator('en').t('results.count', { count: 1 })).toBe('1 event');
    expect(translator('de').t('results.count', { count: 1234 })).toBe('1.234 Veranstaltungen');
    expect(translator('fr').t('results.count', { count: 0 })).toBe('aucun événement');
    expect(translator('it').t('results.count', { count: 2 })).toBe('2 eventi');
    expect(translator('de').t('home.title', { country: 'ch' })).toBe('Tech-Events in der Schweiz');
    expect(translator('fr').t('home.title', { country: 'at' })).toBe('Événements tech en Autriche');
  });
});

describe('language negotiation', () => {
  it('takes ?hl= first, then Accept-Language (q-values, regional tags), then English', () => {
    expect(chooseLanguage('fr', 'de-CH,de;q=0.9')).toEqual({ lang: 'fr', explicit: true });
    expect(chooseLanguage(undefined, 'de-CH,de;q=0.9,en;q=0.8')).toEqual({ lang: 'de', explicit: false });
    expect(chooseLanguage('es', 'fr-CH')).toEqual({ lang: 'fr', explicit: false });
    expect(chooseLanguage(['de', 'fr'], undefined)).toEqual({ lang: 'en', explicit: false });
    expect(negotiateLanguage('de-CH;q=0.5, it;q=0.9')).toBe('it');
    expect(negotiateLanguage('es, pt;q=0.9')).toBe('en');
    expect(negotiateLanguage('*')).toBe('en');
    expect(negotiateLanguage('')).toBe('en');
  });
});

const event = (over: Partial<CatalogueEvent>): CatalogueEvent =>
  ({
    id: 'x',
    country: 'ch',
    title: 'Swiss AI Summit',
    description: null,
    start: new Date('2026-12-04T17:30:00Z'),
    end: null,
    allDay: false,
    city: 'Zürich',
    venue: 'Kongresshaus',
    format: 'in_person',
    topics: [],
    seniority: [],
    regMode: 'open',
    capacity: null,
    priceType: 'unknown',
    priceAmount: null,
    currency: 'CHF',
    organizer: 'Host',
    url: 'https://example.org/e',
    sourceUrl: null,
    lat: 47.3667,
    lng: 8.5357,
    geoPrecision: 'exact',
    visibility: 'public',
    owner: 'key:k',
    externalId: null,
    source: 'host',
    lifecycle: 'listed',
    revision: 1,
    createdAt: new Date(0),
    updatedAt: new Date(0),
    ...over,
  }) as CatalogueEvent;

describe('dates in the reader language, in the event country zone', () => {
  const allDay = event({
    allDay: true,
    start: new Date('2026-12-03T23:00:00Z'),
    end: new Date('2026-12-04T23:00:00Z'),
  });

  it('writes weekdays, months and all-day events in each language, as its locale writes a short date', () => {
    expect(formatWhen(allDay, translator('en'))).toBe('Fri, 4 Dec 2026 · Full day');
    expect(formatWhen(allDay, translator('de'))).toBe('Fr., 4. Dez. 2026 · ganztägig');
    expect(formatWhen(allDay, translator('fr'))).toBe('ven. 4 déc. 2026 · toute la journée');
    expect(formatWhen(allDay, translator('it'))).toBe('ven 4 dic 2026 · tutto il giorno');
    const twoDays = { ...allDay, end: new Date('2026-12-05T23:00:00Z') };
    expect(formatWhen(twoDays, translator('de'))).toBe('Fr., 4. Dez. 2026 · ganztägig, bis Sa., 5. Dez.');
  });

  it('shows the time of the event country, whatever the reader', () => {
    const vienna = event({ country: 'at', start: new Date('2026-07-01T16:00:00Z') });
    expect(formatWhen(vienna, translator('fr'))).toBe('mer. 1 juil. 2026 · 18:00');
    const evening = { ...vienna, end: new Date('2026-07-01T19:00:00Z') };
    expect(formatWhen(evening, translator('it'))).toBe('mer 1 lug 2026 · 18:00–21:00');
  });

  it('heads days relative to today, weeks running Monday to Sunday', () => {
    const now = new Date('2025-03-01T09:00:00Z'); // a Saturday
    const zone = 'Europe/Zurich';
    expect(periodOf('2025-03-01', zone, now)).toBe('today');
    expect(periodOf('2025-03-02', zone, now)).toBe('tomorrow');
    expect(periodOf('2025-03-05', zone, now)).toBe('nextWeek');
    expect(periodOf('2025-03-10', zone, now)).toBeUndefined();
    expect(periodOf('2025-02-27', zone, now)).toBe('today'); // began earlier, still running
    expect(dayHeading('2025-03-05', zone, now, translator('de'))).toBe('Nächste Woche · Mittwoch, 5. März');
    expect(dayHeading('2025-03-02', zone, now, translator('fr'))).toBe('Demain · dimanche 2 mars');
    expect(dayHeading('2026-01-09', zone, now, translator('en'))).toBe('Friday, 9 January 2026');
    const thursday = new Date('2025-03-06T09:00:00Z');
    expect(periodOf('2025-03-08', zone, thursday)).toBe('thisWeek');
  });
});

describe('match reasons in the reader language', () => {
  const now = new Date('2026-01-05T09:00:00Z');
  const index = new CatalogueIndex(() => now);
  index.load(demoCatalogueEvents(1500, now));
  const prompts = [
    '',
    'AI meetup Berlin free',
    'Kubernetes workshop near Hamburg',
    'KI Meetup Wien nächste Woche',
    'conférences sécurité Genève en février',
    'startup founders Zürich this weekend',
    'online python workshop',
    'hybrid data conference',
    'paid product summit in Köln',
    'events for juniors in Graz',
    'eventi IA a Lugano la prossima settimana',
    'Demo Venue 3',
    'synthetic demo event about security',
    'Cloud Native hackathon in Basel im März',
    'tomorrow',
  ];
  const filters: Record<string, string>[] = [
    {},
    { format: 'online' },
    { topic: 'ai-ml,security' },
    { city: 'Berlin', near: '1', country: 'de' },
    { city: 'Zürich', country: 'ch' },
    { who: 'founders' },
    { seniority: 'junior,senior' },
    { org: 'Demo Org 1' },
  ];

  it('says every reason and difference the engine gives in every language', () => {
    const seen = new Set<string>();
    const said = (phrase: Phrase) => {
      const english = sayPhrase(phrase);
      for (const lang of LANGUAGES) {
        const text = sayPhrase(phrase, translator(lang));
        expect([english, lang, text.trim() !== '' && !/[{}]/.test(text)]).toEqual([english, lang, true]);
        if (lang === 'de') seen.add(`${english} → ${text}`);
      }
    };
    for (const q of prompts)
      for (const extra of filters)
        for (const country of ['ch', 'de', 'at']) {
          let result: ReturnType<typeof search>;
          try {
            result = search(index, parseSearchParams({ q, country, limit: '20', ...extra }), now);
          } catch (error) {
            // A city of another country is refused; anything else the engine throws fails the test.
            if (error instanceof ValidationError && error.errors.every((e) => e.field === 'city')) continue;
            throw error;
          }
          for (const ranked of [...result.events, ...(result.alternatives ?? [])]) ranked.reasons.forEach(said);
          for (const alternative of result.alternatives ?? []) said(alternative.differs);
        }
    // The engine's kinds of reason, each met at least once.
    const all = [...seen].join('\n');
    for (const pattern of [
      /^Topic: /m,
      /^In /m,
      /km from/,
      /^Title mentions/m,
      /^Free → /m,
      /^For founders/m,
      /^Online → /m,
      /, not .* → .*, nicht /,
    ])
      expect(all, String(pattern)).toMatch(pattern);
    expect(all).toMatch(/Topic: AI & ML → Thema: KI & ML/);
  });

  it('says the reasons of a call for papers, an event language and the person’s own place', () => {
    const say = (phrase: Phrase, lang: 'de' | 'fr' | 'en') => sayPhrase(phrase, translator(lang));
    const cfp: Phrase = {
      words: SAID.cfpOpenUntil,
      values: { date: { deadline: '2026-12-01', zone: 'Europe/Zurich' } },
    };
    expect(say(cfp, 'de')).toMatch(/^Call for Papers offen bis Di\.?,? 1\. Dez/);
    expect(say(cfp, 'en')).toBe('Call for papers open until Tue 1 Dec 2026');
    const language: Phrase = { words: SAID.language, values: { language: { language: 'de' } } };
    expect(say(language, 'fr')).toBe('Langue\u00a0: allemand');
    expect(say(language, 'en')).toBe('Language: German');
    const base: Phrase = { words: SAID.distanceFromBase, values: { km: 12, place: 'München' } };
    expect(say(base, 'de')).toBe('12 km von Ihrem Ort München');
  });
});

describe('event extras, calendars and maps', () => {
  it('renders an open call for papers and the event language once the event model has them', () => {
    const t = translator('de');
    const cfp = cfpNote(
      { url: 'https://example.org/cfp', until: new Date('2026-10-31T12:00:00Z') },
      'Europe/Zurich',
      t,
    );
    expect(String(cfp)).toBe(
      '<a href="https://example.org/cfp" rel="noopener nofollow">Call for Papers offen bis Sa., 31. Okt. 2026</a>',
    );
    expect(String(cfpNote({ url: null, until: null }, 'Europe/Zurich', translator('fr')))).toBe(
      'Appel à conférences ouvert',
    );
    expect(cfpNote(undefined, 'Europe/Zurich', t)).toBe('');
    expect(languagesText(['de', 'en'], t)).toBe('Auf Deutsch und Englisch');
    expect(languagesText(['de'], translator('fr'))).toBe('En allemand');
    expect(languagesText([], t)).toBeUndefined();
  });

  it('builds Google and Outlook links with the times of the .ics, and an OpenStreetMap link for exact places', () => {
    const timed = calendarLinks(event({}), 'https://events.example/ch/events/x');
    const google = new URL(timed.google);
    expect(google.searchParams.get('dates')).toBe('20261204T173000Z/20261204T193000Z');
    expect(google.searchParams.get('text')).toBe('Swiss AI Summit');
    expect(google.searchParams.get('location')).toBe('Kongresshaus, Zürich');
    const outlook = new URL(timed.outlook);
    expect(outlook.searchParams.get('startdt')).toBe('2026-12-04T18:30:00+01:00');
    expect(outlook.searchParams.get('enddt')).toBe('2026-12-04T20:30:00+01:00');
    const allDay = calendarLinks(
      event({ allDay: true, start: new Date('2026-12-03T23:00:00Z'), end: new Date('2026-12-05T23:00:00Z') }),
      'https://events.example/ch/events/x',
    );
    expect(new URL(allDay.google).searchParams.get('dates')).toBe('20261204/20261206');
    expect(new URL(allDay.office).searchParams.get('allday')).toBe('true');
    expect(mapLink(event({}))).toBe(
      'https://www.openstreetmap.org/?mlat=47.36670&mlon=8.53570#map=17/47.36670/8.53570',
    );
    expect(mapLink(event({ geoPrecision: 'city' }))).toBeUndefined();
    expect(mapLink(event({ format: 'online' }))).toBeUndefined();
  });
});

describe('search page template data', () => {
  it('says how old each source’s data is, when given: a sync’s time, a snapshot’s date, or not read yet', () => {
    const base = {
      t: translator('de'),
      baseUrl: 'https://events.example',
      path: '/ch',
      country: 'ch' as const,
      now: new Date('2025-03-01T09:00:00Z'),
      form: {},
    };
    expect(renderSearchPage(base)).not.toContain('Datenstand');
    const page = renderSearchPage({
      ...base,
      freshness: {
        zone: 'Europe/Zurich',
        sources: [
          { source: 'confs-tech', kind: 'snapshot', of: '2026-08-06' },
          { source: 'meetup', kind: 'synced', at: new Date('2025-03-01T08:15:00Z') },
          { source: 'luma', kind: 'not-read' },
        ],
      },
    });
    expect(page.replace(/<[^>]+>/g, '')).toContain(
      'Datenstand: confs-tech Do., 6. Aug. 2026 (mitgelieferter Stand) · meetup 1. März 2025, 09:15 MEZ · luma noch nicht gelesen.',
    );
  });
});
