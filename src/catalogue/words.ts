import {
  type EventFormat,
  PLAIN_FIELD_NAMES,
  PLAIN_FIELDS,
  type PlainFieldName,
  SPEAKING,
  type Speaking,
} from './event.js';
import type { EventKind, Seniority } from './taxonomy.js';

/** Words in every language the service speaks, each an ICU message, kept beside what they describe. */
export type Words = Readonly<Record<Speaking, string>>;

/** A date window as a phrase names it: its English label, its days and what kind of span it is. */
export interface WindowNamed {
  label: string;
  from: Date;
  to: Date;
  kind: string;
}

/**
 * What a phrase's words name, said in each language by the renderer (render/phrase.ts): text and numbers as they
 * are, the rest by the catalogue's own names in that language.
 */
export type Value =
  | string
  | number
  | { topic: string }
  | { format: EventFormat }
  | { kind: EventKind }
  | { level: Seniority }
  /** Levels as "A, B and C". */
  | { levels: readonly Seniority[] }
  | { country: string }
  /** "in Switzerland", "in der Schweiz": where a scope's events are. */
  | { countryIn: string }
  /** A date as the query grammar takes it (YYYY-MM-DD), "Mon, 10 Mar 2025". */
  | { isoDay: string; zone: string }
  /** Items as "A, B or C" and "A, B and C", each said once. */
  | { or: readonly (Value | Phrase)[] }
  | { and: readonly (Value | Phrase)[] }
  | { language: string }
  | { plain: PlainFieldName; value?: string }
  /** A local day, "Thu 26 Nov". */
  | { day: number; zone: string }
  /** A local month, with its year or without: "March", "März 2027". */
  | { month: number; zone: string; year: boolean }
  /** A deadline as stored (a date, or a date-time with its offset), "Fri 4 Dec 2026, 23:59". */
  | { deadline: string; zone: string }
  /**
   * A date window: in English its label's phrase ("next week"), in the others its name relative to `now` or its days;
   * `dated`, with its days ("next week (3–9 Mar 2025)").
   */
  | { window: WindowNamed; zone: string; now: number; capital: boolean; dated?: boolean };

/** A reason or a difference, in no language: words, and the values they name. */
export interface Phrase {
  readonly words: Words;
  readonly values?: Readonly<Record<string, Value>>;
}

/** How a filter by a plain field is said, `{values}` standing for the values asked ("held in {values}"). */
const PLAIN_FILTERED = Object.fromEntries(
  PLAIN_FIELD_NAMES.map((field) => [
    field,
    Object.fromEntries(SPEAKING.map((lang) => [lang, PLAIN_FIELDS[field].words[lang].filtered])) as Words,
  ]),
) as Record<PlainFieldName, Words>;

/** A filter by a plain field, its values named in each language by the field's own words. */
export const plainFilterPhrase = (field: PlainFieldName, values: readonly string[]): Phrase => ({
  words: PLAIN_FILTERED[field],
  values: { values: { or: values.map((value) => ({ plain: field, value })) } },
});
