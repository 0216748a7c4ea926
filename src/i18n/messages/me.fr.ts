import type { enMe } from './me.en.js';

/** French messages of `/me` and the RSVP forms (see me.en.ts). */
export const frMe: Record<keyof typeof enMe, string> = {
  'me.title': 'Vos inscriptions',
  'me.description':
    'Inscrivez-vous avec une clé d’accès aux événements que leurs organisateurs gèrent sur ce site : pas de compte, pas d’e-mail, pas de nom. Vos inscriptions et votre calendrier privé.',
  'me.intro':
    'Les organisateurs qui gèrent leurs événements sur ce site y prennent les inscriptions. Vous vous connectez avec une clé d’accès que votre appareil crée : rien de personnel n’est demandé ni gardé (pas d’e-mail, pas de nom), et les organisateurs ne voient qu’un pseudonyme aléatoire.',
  'me.create': 'Créer une clé d’accès',
  'me.createHelp':
    'Nouveau ici : votre appareil crée une clé d’accès pour ce site, qui vous nomme par un pseudonyme aléatoire.',
  'me.signIn': 'Se connecter avec une clé d’accès',
  'me.signInHelp': 'Déjà venu : votre appareil propose la clé d’accès que vous avez créée.',
  'me.noScript':
    'Les clés d’accès demandent JavaScript dans le navigateur : cette page charge un petit script de ce site.',
  'me.working': 'En attente de votre appareil…',
  'me.failed': 'Cela n’a pas marché :',
  'me.signedInAs': 'Connecté en tant que {handle}',
  'me.continue': 'Reprendre où vous étiez',
  'me.rsvpsHeading': 'Vos inscriptions',
  'me.none':
    'Aucune inscription pour l’instant. Les événements que leurs organisateurs gèrent sur ce site ont un bouton « S’inscrire » sur leur page.',
  'me.status':
    '{status, select, registered {Inscrit} waitlisted {Sur la liste d’attente, place {place}} requested {Demandé : en attente de l’organisateur} declined {Refusé par l’organisateur} other {Désinscrit}}',
  'me.cancelled': 'Annulé par l’organisateur : votre inscription est gardée au cas où il serait rétabli.',
  'me.calendarHeading': 'Votre calendrier privé',
  'me.calendarHelp':
    'Abonnez-vous à cette adresse dans votre application de calendrier : elle contient les événements auxquels vous êtes inscrit (avec rappels) et ceux que vous attendez. Qui a l’adresse peut le lire : renouvelez-la si elle a fuité.',
  'me.rotate': 'Renouveler l’adresse',
  'me.signOut': 'Se déconnecter',
  'me.deleteHeading': 'Supprimer cette identité',
  'me.deleteHelp': 'Retire chaque inscription et supprime votre clé d’accès et vos sessions ici. C’est définitif.',
  'me.delete': 'Tout retirer et supprimer',
  'me.deleteConfirm': 'Retirer chaque inscription et supprimer définitivement cette identité ?',
  'rsvp.heading': 'S’inscrire sur ce site',
  'rsvp.help':
    'L’organisateur prend les inscriptions ici. Il vous faut une clé d’accès : pas de compte, rien de personnel.',
  'rsvp.cancelledHelp':
    'L’événement est annulé : les inscriptions sont gardées au cas où il serait rétabli, et vous pouvez retirer la vôtre.',
  'rsvp.register': 'S’inscrire',
  'rsvp.withdraw': 'Se désinscrire',
  'rsvp.mine': 'Vos inscriptions',
  'rsvp.resultTitle': 'Votre inscription',
  'rsvp.result':
    '{status, select, registered {Vous êtes inscrit à « {title} ».} waitlisted {Vous êtes sur la liste d’attente de « {title} », place {place}.} requested {Votre demande pour « {title} » attend l’organisateur.} declined {L’organisateur a refusé votre demande pour « {title} ».} other {Vous vous êtes désinscrit de « {title} ».}}',
  'rsvp.unchanged': 'Rien n’a changé : c’était déjà le cas.',
  'rsvp.failed': 'Pas fait :',
  'rsvp.back': 'Retour à l’événement',
};
