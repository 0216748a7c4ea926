import type { Translator } from '../../i18n/translator.js';
import type { SearchResult } from '../../query/read-index.js';
import { sayRestatement } from '../restate.js';

/**
 * How the page read a search, in the reader's language: the engine's restatement said by the renderer that gives the
 * answers their English `understood` ("Gesucht: Meetups zu KI & ML, in oder nahe Zürich, nächste Woche (3.–9. März
 * 2025)"), or, for a search asking nothing beyond the country, its upcoming events.
 */
export function understoodText(result: SearchResult, t: Translator): string {
  return isPlainListing(result)
    ? t.t('results.upcoming', { country: result.country })
    : t.t('results.lookingFor', { query: sayRestatement(result.restatement, t) });
}

/** Whether a search asks for anything beyond the country's upcoming events. */
export function isPlainListing(result: SearchResult): boolean {
  const { params: p } = result;
  return (
    !p.q &&
    p.topics.length === 0 &&
    p.seniority.length === 0 &&
    !p.city &&
    !p.format &&
    !p.org &&
    !p.who &&
    !p.from &&
    !p.to &&
    !p.cfp &&
    Object.keys(p.plain).length === 0
  );
}
