import { createIntl, createIntlCache } from '@formatjs/intl';
import type { Words } from '../catalogue/words.js';
import { LANGUAGES, type Language, LOCALES } from './languages.js';
import { MESSAGES, type MessageId } from './messages/index.js';

/**
 * The messages of one language, formatted with ICU MessageFormat (plurals, selects, numbers) by @formatjs/intl.
 * A missing message or value throws instead of falling back to the id: every message exists in every language
 * (the types require it and a test checks it), so a failure here is a bug that the page tests surface.
 */
export interface Translator {
  lang: Language;
  /** BCP 47 locale for dates and numbers (`en-GB` for English). */
  locale: string;
  /** A message as text. */
  t(id: MessageId, values?: Record<string, string | number | Date>): string;
  /** Words kept beside what they describe (catalogue/words.ts), in this language. */
  say(words: Words, values?: Record<string, string | number>): string;
  /** A message whose values may be markup: its parts in order, text as strings and the markup values as given. */
  parts<T extends object>(id: MessageId, values: Record<string, string | number | Date | T>): (string | T)[];
  /** Numbers in the language's conventions ("1’234" is not ours: de "1.234", fr "1 234"). */
  number(value: number, options?: Intl.NumberFormatOptions): string;
  /** "A, B or C" in the language. */
  or(items: readonly string[]): string;
  /** "A, B and C" in the language. */
  and(items: readonly string[]): string;
}

const cache = createIntlCache();

/** A message of text and `{name}` places only, with no quoting apostrophe: said without MessageFormat. */
const SIMPLE = /^(?:[^{}']|\{\w+\})*$/;

/**
 * Such words as their pieces, joined around the values: @formatjs runs its whole interpreter for each, and the
 * reasons, nearly all simple, are most of an answer's text (docs/architecture.md, "written by hand").
 */
function simpleTemplate(text: string): { format(values?: Record<string, unknown>): string } {
  const pieces = text.split(/\{(\w+)\}/);
  return {
    format(values) {
      let out = pieces[0]!;
      for (let i = 1; i < pieces.length; i += 2) {
        const value = values?.[pieces[i]!];
        if (value === undefined) throw new Error(`the message "${text}" needs a value for ${pieces[i]}`);
        out += String(value) + pieces[i + 1]!;
      }
      return out;
    },
  };
}
const onError = (error: Error): never => {
  throw error;
};

function createTranslator(lang: Language): Translator {
  const intl = createIntl(
    { locale: LOCALES[lang], messages: MESSAGES[lang], onError, defaultLocale: LOCALES.en },
    cache,
  );
  // Each message compiled once through @formatjs/intl's own formatter cache and kept by id: formatMessage would
  // serialise its arguments to look the compiled message up again on every call, several times per result.
  const compiled = new Map<string, ReturnType<typeof intl.formatters.getMessageFormat>>();
  const compile = (text: string) =>
    intl.formatters.getMessageFormat(text, LOCALES[lang], intl.formats, { formatters: intl.formatters });
  const format = (id: MessageId, values?: Record<string, unknown>): unknown => {
    let message = compiled.get(id);
    if (!message) {
      message = compile(MESSAGES[lang][id]);
      compiled.set(id, message);
    }
    return message.format(values as Parameters<typeof message.format>[0]);
  };
  // Words are constants of the modules that own them: kept while they are.
  const compiledWords = new WeakMap<Words, { format(values?: Record<string, unknown>): unknown }>();
  const orList = new Intl.ListFormat(LOCALES[lang], { type: 'disjunction' });
  const andList = new Intl.ListFormat(LOCALES[lang], { type: 'conjunction' });
  return {
    lang,
    locale: LOCALES[lang],
    t: (id, values) => String(format(id, values)),
    say(words, values) {
      let message = compiledWords.get(words);
      if (!message) {
        message = SIMPLE.test(words[lang]) ? simpleTemplate(words[lang]) : compile(words[lang]);
        compiledWords.set(words, message);
      }
      return String(message.format(values));
    },
    parts: <T extends object>(id: MessageId, values: Record<string, string | number | Date | T>) => {
      const out = format(id, values);
      return (Array.isArray(out) ? out : [out]) as (string | T)[];
    },
    number: (value, options) => new Intl.NumberFormat(LOCALES[lang], options).format(value),
    or: (items) => orList.format(items),
    and: (items) => andList.format(items),
  };
}

const TRANSLATORS = Object.fromEntries(LANGUAGES.map((lang) => [lang, createTranslator(lang)])) as Record<
  Language,
  Translator
>;

export function translator(lang: Language): Translator {
  return TRANSLATORS[lang];
}

/** A language code ("de", "en-GB") named in the reader's language ("German", "allemand"). */
export function languageName(t: Translator, code: string): string {
  try {
    return new Intl.DisplayNames([t.locale], { type: 'language' }).of(code) ?? code;
  } catch {
    return code;
  }
}
