/**
 * Precompiled window phrases for `findDateWindow` (see dates.ts). Every pattern runs on *folded* text
 * (lower-case, diacritics stripped, ’ → '), so "nächste Woche" is written here as "nachste woche".
 * chrono-node covers specific dates and weekdays; these cover what chrono gets wrong or misses:
 * weeks, weekends, months and "next N days" windows, in English, German, French and Italian.
 */

/** Relative phrases whose window depends only on `now`. */
export type Relative =
  | 'today'
  | 'tonight'
  | 'tomorrow'
  | 'afterTomorrow'
  | 'thisWeek'
  | 'nextWeek'
  | 'thisWeekend'
  | 'nextWeekend'
  | 'thisMonth'
  | 'nextMonth';

/** Word-bounded, global, unicode: JS `\b` is ASCII-only, so use letter/digit lookarounds instead. */
function bounded(source: string): RegExp {
  return new RegExp(`(?<![\\p{L}\\p{N}])(?:${source})(?![\\p{L}\\p{N}])`, 'gu');
}

/** Alternatives joined longest first, because JS alternation takes the first alternative that fits. */
function alt(...parts: string[]): string {
  return [...parts].sort((a, b) => b.length - a.length).join('|');
}

const S = '\\s+';
const NEXT_DE = '(?:nachste|naechste|kommende)[nrs]?';

export const RELATIVE_PATTERNS: ReadonlyArray<readonly [Relative, RegExp]> = [
  ['today', bounded(alt('today', 'heute', "aujourd'? ?hui", 'oggi'))],
  ['tonight', bounded(alt('tonight', `this${S}evening`, `heute${S}abend`, `ce${S}soir`, 'stasera', `questa${S}sera`))],
  ['tomorrow', bounded(alt('tomorrow', 'morgen', 'demain', 'domani'))],
  [
    'afterTomorrow',
    bounded(alt(`(?:the${S})?day${S}after${S}tomorrow`, 'ubermorgen', 'apres[- ]demain', 'dopodomani')),
  ],
  [
    'thisWeek',
    bounded(alt(`this${S}week`, `(?:in${S})?diese[rn]?${S}woche`, `cette${S}semaine`, `questa${S}settimana`)),
  ],
  [
    'nextWeek',
    bounded(
      alt(
        `next${S}week`,
        `(?:in${S}der${S})?${NEXT_DE}${S}woche`,
        `(?:la${S})?semaine${S}prochaine`,
        `(?:la${S})?prochaine${S}semaine`,
        `(?:la${S})?settimana${S}prossima`,
        `(?:la${S})?prossima${S}settimana`,
      ),
    ),
  ],
  [
    'thisWeekend',
    bounded(
      alt(
        `(?:this|on${S}the|at${S}the)${S}weekend`,
        'weekend',
        `(?:am|an${S}diesem|dieses|diesem)${S}wochenende`,
        'wochenende',
        `(?:ce|le)${S}week[- ]?end`,
        `(?:questo|il|nel)${S}fine${S}settimana`,
        `fine${S}settimana`,
      ),
    ),
  ],
  [
    'nextWeekend',
    bounded(
      alt(
        `next${S}weekend`,
        `(?:am${S})?${NEXT_DE}${S}wochenende`,
        `(?:le${S})?week[- ]?end${S}prochain`,
        `(?:le${S})?prochain${S}week[- ]?end`,
        `(?:il${S})?(?:prossimo${S}(?:fine${S}settimana|weekend)|fine${S}settimana${S}prossimo)`,
      ),
    ),
  ],
  [
    'thisMonth',
    bounded(alt(`this${S}month`, `(?:in${S})?diese[mnr]?${S}monat`, `ce${S}mois(?:[- ]ci)?`, `questo${S}mese`)),
  ],
  [
    'nextMonth',
    bounded(
      alt(
        `next${S}month`,
        `(?:im${S}|in${S}dem${S})?${NEXT_DE}${S}monat`,
        `(?:le${S})?mois${S}prochain`,
        `(?:le${S})?prochain${S}mois`,
        `(?:il${S}|nel${S})?(?:prossimo${S}mese|mese${S}prossimo)`,
      ),
    ),
  ],
];

const MONTH_LISTS = [
  'january|jan|januar|janner|janvier|janv|gennaio',
  'february|feb|februar|feber|fevrier|fevr|fev|febbraio',
  'march|mar|marz|maerz|mars|marzo',
  'april|apr|avril|avr|aprile',
  'may|mai|maggio',
  'june|jun|juni|juin|giugno',
  'july|jul|juli|juillet|juil|luglio',
  'august|aug|aout|agosto',
  'september|sep|sept|septembre|settembre',
  'october|oct|oktober|okt|octobre|ottobre',
  'november|nov|novembre',
  'december|dec|dezember|dez|decembre|dicembre',
];
/** Month names and abbreviations (folded) in en/de/fr/it, 1-based month number. */
const MONTH_WORDS: Readonly<Record<string, number>> = Object.fromEntries(
  MONTH_LISTS.flatMap((list, i) => list.split('|').map((word) => [word, i + 1])),
);

export { MONTH_WORDS };

/** Month words that are ordinary words or names on their own ("it may", "Jan Müller", "Mars"). */
export const MONTH_NEEDS_CONTEXT: ReadonlySet<string> = new Set(['may', 'mar', 'mars', 'jan']);

/** Month name with an optional "in/im/en/a" prefix and an optional year: "im Dezember", "Jan 2027". */
export const MONTH_PATTERN = bounded(
  `(?:(${alt('in', 'im', 'en', 'a', 'ad', `in${S}the${S}month${S}of`, `im${S}monat`, `au${S}mois${S}d(?:e${S}|')`, `nel${S}mese${S}di`)})${S})?` +
    `(${alt(...Object.keys(MONTH_WORDS))})\\.?(?:${S}(20\\d\\d))?`,
);

/**
 * A year on its own, with an optional "in/im Jahr/en/nel" before it: "2027", "in 2027", "im Jahr 2027", "en 2027",
 * "nel 2027". Group: the year. A month before it is MONTH_PATTERN's, which starts earlier and so wins.
 */
export const YEAR_PATTERN = bounded(
  `(?:(?:${alt('in', 'im', `im${S}jahre?`, `in${S}the${S}year`, 'during', 'en', `en${S}l'an`, `dans${S}l'annee`, `pendant${S}l'annee`, 'nel', `nell'anno`, `durante${S}il`)})${S})?(20\\d\\d)`,
);

/** German/Swiss numeric dates, day first: "3.12.", "03.12.2026", "3.-5.12.". Needs the closing dot or year. */
export const DOTTED_DATE_PATTERN = bounded(
  '(?:(\\d{1,2})\\.?\\s*[-–]\\s*)?(\\d{1,2})\\.(\\d{1,2})\\.(?:(\\d{4}|\\d{2})(?!\\.?\\d))?',
);

/** Small number words for "the next two weeks"; digits cover the rest. */
export const NUMBER_WORDS: Record<string, number> = {
  two: 2,
  three: 3,
  four: 4,
  zwei: 2,
  drei: 3,
  vier: 4,
  deux: 2,
  trois: 3,
  quatre: 4,
  due: 2,
  tre: 3,
  quattro: 4,
};
const N = `(\\d{1,3}|${alt(...Object.keys(NUMBER_WORDS))})`;

/** "in the next 2 weeks", "in den nächsten 14 Tagen", "dans les 10 prochains jours", "within 30 days". Groups: count, unit. */
export const SPAN_PATTERNS: readonly RegExp[] = [
  bounded(`(?:(?:in|within|during|over)${S})?(?:the${S})?(?:next|coming)${S}${N}${S}(days?|weeks?)`),
  bounded(`within${S}${N}${S}(days?|weeks?)`),
  bounded(`(?:(?:in|innerhalb)${S}(?:den|der)${S})?(?:nachsten|naechsten|kommenden)${S}${N}${S}(tagen?|wochen?)`),
  bounded(`innerhalb${S}(?:von${S})?${N}${S}(tagen?|wochen?)`),
  bounded(`(?:(?:dans|pendant|durant|sur)${S})?les${S}${N}${S}(?:prochains|prochaines)${S}(jours|semaines)`),
  bounded(`(?:dans${S})?les${S}${N}${S}(jours|semaines)${S}(?:a venir|qui viennent)`),
  bounded(`d'${S}?ici${S}${N}${S}(jours|semaines)`),
  bounded(`(?:(?:nei|nelle|entro${S}i|entro${S}le)${S})?(?:prossimi|prossime)${S}${N}${S}(giorni|settimane)`),
  bounded(`entro${S}${N}${S}(giorni|settimane)`),
];

/** Month and weekday names in en/de/fr/it (folded), for the gate before chrono. */
const DATE_NAMES = (
  'january february march april may june july august september october november december ' +
  'januar jaenner janner februar feber marz maerz mai juni juli oktober dezember ' +
  'janvier fevrier mars avril juin juillet aout septembre octobre novembre decembre ' +
  'gennaio febbraio marzo aprile maggio giugno luglio agosto settembre ottobre dicembre ' +
  'monday tuesday wednesday thursday friday saturday sunday ' +
  'montag dienstag mittwoch donnerstag freitag samstag sonnabend sonntag ' +
  'lundi mardi mercredi jeudi vendredi samedi dimanche lunedi martedi mercoledi giovedi venerdi sabato domenica'
).split(' ');

/**
 * Cheap gate before chrono (which costs ~0.1–1 ms per locale): a digit, or a word that is a month or weekday name,
 * its abbreviation ("Dez", "sept", "Mo" is too short to count), a plural ("mondays") or a compound starting with a
 * long name ("Dienstagabend"). City names that merely start like one ("Mainz", "Augsburg") do not open the gate.
 */
export function mayHoldChronoDate(folded: string): boolean {
  if (/\d/.test(folded)) return true;
  for (const word of folded.match(/\p{L}{3,}/gu) ?? []) {
    for (const name of DATE_NAMES) {
      if (name.startsWith(word) || word === `${name}s` || (name.length >= 5 && word.startsWith(name))) return true;
    }
  }
  return false;
}

/** Italian words: the Italian chrono parser only runs when one appears (it adds noise otherwise). */
export const ITALIAN_HINT =
  /(?<!\p{L})(?:lunedi|martedi|mercoledi|giovedi|venerdi|sabato|domenica|gennaio|febbraio|marzo|aprile|maggio|giugno|luglio|agosto|settembre|ottobre|dicembre|prossim)/u;

/** Articles and prepositions chrono leaves outside its match ("le 3 décembre", "du 3 au 5"): cut them out too. */
export const CHRONO_LEAD_IN = /(?<![\p{L}\p{N}])(?:le|du|dal|il|on|the|from|vom|am)\s+$/iu;

/** chrono matches that are ordinary words on their own: German weekday abbreviations ("do", "mi"), "sun", "now". */
export const CHRONO_STOP_WORDS: ReadonlySet<string> = new Set([
  'mo',
  'di',
  'mi',
  'do',
  'fr',
  'sa',
  'so',
  'sun',
  'sat',
  'mon',
  'wed',
  'now',
]);

/** chrono reads "3 days conference" / "one day workshop" as a relative date; a bare duration is not a date. */
export const BARE_DURATION =
  /^(?:\d+|an?|one|two|three|ein|eine|zwei|drei|un|une|deux|trois)[\s-]*(?:days?|weeks?|months?|years?|tage?|wochen?|monate?|jahre?|jours?|semaines?|mois|ans?)$/;
