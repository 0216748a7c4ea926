/**
 * What an answer claims of every event it lists: the constraints and filters its `understood` restates, read from the
 * restatement the sentence is said from (a sentence is for people; the evaluation reads the parts). Checked event by
 * event with constraints.ts, apart from the engine's own filters.
 */
import { DateTime } from 'luxon';
import type { Phrase, Value } from '../../src/catalogue/words.js';
import type { Part, SearchResult } from '../../src/query/read-index.js';
import type { Constraints } from './constraints.js';

function localDate(date: Date, zone: string): string {
  return DateTime.fromJSDate(date, { zone }).toISODate()!;
}

/** The items a value lists (an `or` or `and` list), or the value itself. */
function itemsOf(value: Value | Phrase | undefined): (Value | Phrase)[] {
  if (value === undefined) return [];
  if (typeof value === 'object' && 'or' in value) return [...value.or];
  if (typeof value === 'object' && 'and' in value) return [...value.and];
  return [value];
}

/** The items of a list a part's phrase names (`value`, else the first value of its words). */
const listed = (part: Part): (Value | Phrase)[] => itemsOf(Object.values(part.phrase.values ?? {})[0]);
/** What the items name under a key: `topic` of `{ topic }`, `level` of `{ level }`. */
const field = (items: (Value | Phrase)[], key: string): string[] =>
  items.flatMap((item) => (typeof item === 'object' && key in item ? [(item as Record<string, string>)[key]!] : []));
const plainValue = (part: Part, name: string) => part.phrase.values?.[name] as string;

/** The claims of an answer: everything its `understood` says every listed event is. */
export function claimsOf(result: SearchResult): Constraints {
  const c: Constraints = {};
  for (const part of result.restatement.parts) {
    const items = listed(part);
    const values = part.phrase.values ?? {};
    if (part.say === 'window') {
      const { window, zone } = values.value as Extract<Value, { window: unknown }>;
      c.window = { from: localDate(window.from, zone), to: localDate(new Date(window.to.getTime() - 1), zone) };
    } else if (part.say === 'starts') {
      const day = (name: string) => (values[name] as { isoDay: string } | undefined)?.isoDay;
      c.starts = { ...(day('from') && { from: day('from') }), ...(day('to') && { to: day('to') }) };
    }
    // The city parameter comes before the place the prompt names, and decides where "near" is.
    else if (part.say === 'place') c.near ??= plainValue(part, 'place');
    else if (part.say === 'city') c['km' in values ? 'near' : 'city'] = plainValue(part, 'place');
    // "in Switzerland" is a claim about the country; all three countries claim none.
    else if (part.say === 'country') {
      const country = (values.value as { countryIn: string }).countryIn;
      if (country !== 'all') c.country = country as Constraints['country'];
    } else if (part.say === 'subject') {
      const topics = field(items, 'topic');
      const terms = items.filter((item): item is string => typeof item === 'string');
      if (topics.length) c.topics = topics as Constraints['topics'];
      if (terms.length) c.technologies = terms;
    } else if (part.say === 'topics') c.topicParam = field(items, 'topic') as Constraints['topicParam'];
    else if (part.say === 'kind') c.kinds = items.map((i) => (i as Phrase).values!.kind) as Constraints['kinds'];
    else if (part.say === 'format') c.format = (items[0] as Phrase).values!.format as Constraints['format'];
    else if (part.say === 'formatExactly') c.formatExactly = plainValue(part, 'format') as Constraints['formatExactly'];
    else if (part.say === 'price') c.price = plainValue(part, 'price') as Constraints['price'];
    else if (part.say === 'audience' || part.say === 'for') {
      const audience = itemsOf(values.audience);
      const levels = field(audience, 'level');
      if (levels.length) c.seniority = [...new Set([...(c.seniority ?? []), ...levels])] as Constraints['seniority'];
      if (audience.some((i) => typeof i === 'object' && 'words' in i)) c.founders = true;
    } else if (part.say === 'cfp') c.cfp = 'open';
    else if (part.say === 'plain' && field(items, 'plain')[0] === 'language') c.languages = field(items, 'value');
    else if (part.say === 'org') c.organizer = plainValue(part, 'org');
  }
  return c;
}
