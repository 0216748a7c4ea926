import type { enOAuth } from './oauth.en.js';

/** French messages of the OAuth consent page (see oauth.en.ts). */
export const frOAuth: Record<keyof typeof enOAuth, string> = {
  'oauth.title': 'Autoriser un client MCP à s’inscrire pour vous\u00a0?',
  'oauth.description': 'Un client MCP demande à vous inscrire à des événements en votre nom.',
  'oauth.asks': '{client} demande à agir ici en votre nom.',
  'oauth.unverified': 'Ce nom est celui que le client se donne\u00a0: personne ne l’a vérifié.',
  'oauth.scopeHeading': 'Il pourra\u00a0:',
  'oauth.scopeRsvp':
    'vous inscrire à des événements et retirer vos inscriptions (autorisation «\u00a0rsvp\u00a0»), et lire où vous en êtes pour ces événements (inscrit·e, en liste d’attente et à quelle place). Il ne peut ni se connecter à votre place, ni supprimer votre identité, ni voir vos clés d’accès.',
  'oauth.signedInAs': 'Vous êtes connecté·e en tant que {handle}.',
  'oauth.returnTo': 'Quelle que soit votre réponse, vous revenez ensuite à {address}.',
  'oauth.allow': 'Autoriser',
  'oauth.deny': 'Refuser',
  'oauth.goneTitle': 'Cette demande n’est plus ouverte',
  'oauth.gone':
    'La demande d’autorisation a expiré, a déjà reçu une réponse ou a été commencée dans un autre navigateur. Recommencez depuis votre client MCP.',
};
