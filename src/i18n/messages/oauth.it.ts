import type { enOAuth } from './oauth.en.js';

/** Italian messages of the OAuth consent page (see oauth.en.ts). */
export const itOAuth: Record<keyof typeof enOAuth, string> = {
  'oauth.title': 'Permettere a un client MCP di iscriverti?',
  'oauth.description': 'Un client MCP chiede di iscriverti a eventi a tuo nome.',
  'oauth.asks': '{client} chiede di agire qui a tuo nome.',
  'oauth.unverified': 'Questo è il nome che il client si dà: nessuno l’ha verificato.',
  'oauth.scopeHeading': 'Potrà:',
  'oauth.scopeRsvp':
    'iscriverti a eventi e ritirare le tue iscrizioni (autorizzazione «rsvp») e leggere il tuo stato per quegli eventi (iscritto, in lista d’attesa e a che posto). Non può accedere al posto tuo, eliminare la tua identità né vedere le tue passkey.',
  'oauth.signedInAs': 'Hai effettuato l’accesso come {handle}.',
  'oauth.returnTo': 'Qualunque sia la tua risposta, poi torni a {address}.',
  'oauth.allow': 'Consenti',
  'oauth.deny': 'Rifiuta',
  'oauth.goneTitle': 'Questa richiesta non è più aperta',
  'oauth.gone':
    'La richiesta di autorizzazione è scaduta, ha già avuto risposta o è stata avviata in un altro browser. Ricomincia dal tuo client MCP.',
};
