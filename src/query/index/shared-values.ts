import { foldText } from '../../catalogue/lexicon.js';
import type { technologyFinder } from '../../catalogue/lexicon-technologies.js';
import type { EventKind } from '../../catalogue/taxonomy.js';
import type { Country } from '../../places/countries.js';
import { type Place, resolveCity } from '../../places/gazetteer.js';
import { remembered } from '../memo.js';
import { wordsOf } from './names.js';

/** An organizer as its events share it: a catalogue has a few thousand organizers for 100k events. */
export interface Organizer {
  /** Folded (see foldText): what `org=` compares. */
  readonly folded: string;
  /** Its words, as `plain` splits the folded name. */
  readonly words: readonly string[];
  /** The topic terms the name uses (ranking/evidence.ts, `organizerNames`), made when a prompt first asks. */
  names: readonly string[] | undefined;
}

/** Values kept at most this many of a kind: the bound keeps an unusual input from growing one without end. */
const KEPT = 20_000;
/** City names longer than this are resolved every time rather than kept. */
const CITY_MAX_LENGTH = 100;

/**
 * What a read index's entries and queries share, each made once per value and kept as long as the index: organizers,
 * combinations of kinds, resolved cities, the topic terms names use, and the patterns that find a prompt's
 * technologies in descriptions. A catalogue holds a few thousand of each for 100k events, so entries share one
 * rather than each holding its own; queries recur, so a pattern is compiled once. The CatalogueIndex holds one.
 */
export class SharedValues {
  readonly #organizers = new Map<string, Organizer>();
  readonly #kinds = new Map<string, ReadonlySet<EventKind>>();
  /** Resolved cities by country (or none) and text, null for names that resolve to nothing. */
  readonly #cities = new Map<string, Place | null>();
  readonly #named = new Map<string, readonly string[]>();
  readonly #finders = new Map<string, ReturnType<typeof technologyFinder>>();

  /** The organizer of this name (as the event writes it). */
  organizer(name: string): Organizer {
    return remembered(this.#organizers, name, KEPT, (n) => {
      const folded = foldText(n);
      return { folded, words: wordsOf(folded), names: undefined };
    });
  }

  /** One set per combination of kinds, shared by every event of that combination (a Set costs 150 bytes). */
  kinds(kinds: Set<EventKind>): ReadonlySet<EventKind> {
    return remembered(this.#kinds, [...kinds].join(' '), KEPT, () => kinds);
  }

  /** An event's city resolved by the gazetteer (resolveCity): every event's is, when the index is built. */
  city(text: string, country: Country): Place | undefined {
    if (text.length > CITY_MAX_LENGTH) return resolveCity(text, country);
    return remembered(this.#cities, `${country}|${text}`, KEPT, () => resolveCity(text, country) ?? null) ?? undefined;
  }

  /** A list of topic terms, shared by every name using the same terms alike ("AI Meetup #12" and "#13"). */
  named(terms: readonly string[]): readonly string[] {
    return remembered(this.#named, terms.join('\u0000'), KEPT, () => terms);
  }

  /** The patterns finding these technologies (`key`: their ids, one a line), compiled by `make` the first time. */
  finder(key: string, make: (key: string) => ReturnType<typeof technologyFinder>): ReturnType<typeof technologyFinder> {
    return remembered(this.#finders, key, 1000, make);
  }
}
