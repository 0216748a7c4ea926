import type { EventFormat, PlainFieldName, Speaking } from './event.js';
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
  | { language: string }
  | { plain: PlainFieldName; value?: string }
  /** A local day, "Thu 26 Nov". */
  | { day: number; zone: string }
  /** A local month, with its year or without: "March", "März 2027". */
  | { month: number; zone: string; year: boolean }
  /** A deadline as stored (a date, or a date-time with its offset), "Fri 4 Dec 2026, 23:59". */
  | { deadline: string; zone: string }
  /** A date window by its name relative to `now` ("next week"), else its English label's phrase. */
  | { window: WindowNamed; zone: string; now: number; capital: boolean };

/** A reason or a difference, in no language: words, and the values they name. */
export interface Phrase {
  readonly words: Words;
  readonly values?: Readonly<Record<string, Value>>;
}
