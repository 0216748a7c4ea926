import type { enOAuth } from './oauth.en.js';

/** German messages of the OAuth consent page (see oauth.en.ts). */
export const deOAuth: Record<keyof typeof enOAuth, string> = {
  'oauth.title': 'Einem MCP-Client erlauben, für dich zuzusagen?',
  'oauth.description': 'Ein MCP-Client möchte dich in deinem Namen für Veranstaltungen anmelden.',
  'oauth.asks': '{client} möchte hier in deinem Namen handeln.',
  'oauth.unverified': 'Der Client nennt sich selbst so: Niemand hat diesen Namen geprüft.',
  'oauth.scopeHeading': 'Er darf:',
  'oauth.scopeRsvp':
    'dich für Veranstaltungen anmelden und deine Anmeldungen zurückziehen (Berechtigung „rsvp“) und deinen Stand bei diesen Veranstaltungen lesen (angemeldet, auf der Warteliste und an welchem Platz). Er kann sich nicht in deinem Namen anmelden, deine Identität nicht löschen und deine Passkeys nicht sehen.',
  'oauth.signedInAs': 'Du bist angemeldet als {handle}.',
  'oauth.returnTo': 'Was du auch antwortest, danach geht es zurück zu {address}.',
  'oauth.allow': 'Erlauben',
  'oauth.deny': 'Ablehnen',
  'oauth.goneTitle': 'Diese Anfrage ist nicht mehr offen',
  'oauth.gone':
    'Die Autorisierungsanfrage ist abgelaufen, wurde schon beantwortet oder in einem anderen Browser begonnen. Starte noch einmal in deinem MCP-Client.',
};
