/**
 * What an answer claims of every event it lists: the constraints and filters its `understood` restates, read from the
 * restatement the sentence is said from (a sentence is for people; the evaluation reads the parts). Checked event by
 * event with constraints.ts, apart from the engine's own filters.
 */
import { DateTime } from 'luxon';
import type { SearchResult } from '../../src/query/read-index.js';
import type { Constraints } from './constraints.js';

function localDate(date: Date, zone: string): string {
  return DateTime.fromJSDate(date, { zone }).toISODate()!;
}

/** The claims of an answer: everything its `understood` says every listed event is. */
export function claimsOf(result: SearchResult): Constraints {
  const c: Constraints = {};
  for (const part of result.restatement.parts) {
    if (part.say === 'window') {
      const { from, to } = part.window;
      c.window = { from: localDate(from, part.zone), to: localDate(new Date(to.getTime() - 1), part.zone) };
    } else if (part.say === 'starts')
      c.starts = { ...(part.from && { from: part.from }), ...(part.to && { to: part.to }) };
    // The city parameter comes before the place the prompt names, and decides where "near" is.
    else if (part.say === 'place') c.near ??= part.place;
    else if (part.say === 'city') c[part.near ? 'near' : 'city'] = part.place;
    // "in Switzerland" is a claim about the country; all three countries claim none.
    else if (part.say === 'country' && part.country !== 'all') c.country = part.country;
    else if (part.say === 'subject') {
      if (part.fields.length) c.topics = part.fields;
      if (part.terms.length) c.technologies = part.terms;
    } else if (part.say === 'topics') c.topicParam = part.topics;
    else if (part.say === 'kind') c.kinds = part.kinds;
    else if (part.say === 'format') c.format = part.formats[0];
    else if (part.say === 'formatExactly') c.formatExactly = part.format;
    else if (part.say === 'price') c.price = part.price;
    else if (part.say === 'audience' || part.say === 'for') {
      if (part.seniority.length) c.seniority = [...new Set([...(c.seniority ?? []), ...part.seniority])];
      if (part.founders) c.founders = true;
    } else if (part.say === 'cfp') c.cfp = 'open';
    else if (part.say === 'plain' && part.field === 'language') c.languages = part.values;
    else if (part.say === 'org') c.organizer = part.org;
  }
  return c;
}
