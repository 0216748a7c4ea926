import type { Language } from '../languages.js';
import { de } from './de.js';
import { en, type Messages } from './en.js';
import { fr } from './fr.js';
import { it } from './it.js';

export type { MessageId, Messages } from './en.js';

/** One catalogue per language; `Messages` makes each have exactly the English ids. */
export const MESSAGES: Record<Language, Messages> = { en, de, fr, it };
