import type { enAdd } from './add.en.js';

/** French messages of `/add`, `/add/<id>` and `/admin` (see add.en.ts). */
export const frAdd: Record<keyof typeof enAdd, string> = {
  'add.title': 'Ajoutez votre communauté',
  'add.description':
    'Proposez le calendrier de votre groupe pour le catalogue, ou demandez une clé d’organisateur pour publier vos événements. Rien de personnel n’est demandé.',
  'add.intro':
    'Ici, les communautés s’ajoutent elles-mêmes. Chaque proposition attend l’opérateur, qui l’examine avant que rien ne soit listé.',
  'add.private':
    'Rien de personnel n’est demandé ni gardé : ni e-mail, ni nom, ni compte. L’adresse de la page de suivi que vous recevez est votre seul reçu : gardez-la.',
  'add.calendarHeading': 'Proposer un calendrier',
  'add.calendarHelp':
    'Nous lisons le calendrier une fois, maintenant, et vous montrons ce qu’il listerait. Une fois accepté par l’opérateur, il est synchronisé avec les autres.',
  'add.accepted': 'Ces adresses sont acceptées :',
  'add.acceptedMeetup': 'la page d’un groupe Meetup, p. ex. {example}',
  'add.acceptedLuma': 'le lien iCal d’un calendrier Luma (« S’abonner » → « iCal »)',
  'add.acceptedGoogle': 'un agenda Google public : son adresse publique ou son lien d’intégration',
  'add.acceptedBevy': 'la page d’un chapitre Bevy : Google Developer Groups ({gdg}) ou CNCF ({cncf})',
  'add.acceptedIcal': 'toute autre adresse iCal (en https ou webcal)',
  'add.url': 'Adresse du calendrier',
  'add.city': 'Ville, pour les événements qui ne disent pas où ils ont lieu',
  'add.country': 'Pays, pour les événements qui ne le disent pas',
  'add.countryNone': 'non indiqué',
  'add.name': 'Nom du groupe (facultatif)',
  'add.submitCalendar': 'Proposer ce calendrier',
  'add.keyHeading': 'Demander une clé d’organisateur',
  'add.keyHelp':
    'Avec une clé d’organisateur, votre organisation publie et modifie ses propres événements par l’API (ou relie ses calendriers). Une fois la demande acceptée, la clé est montrée une fois sur votre page de suivi.',
  'add.organisation': 'Organisation',
  'add.keyCountry': 'Pays',
  'add.plans': 'Ce que vous publierez',
  'add.plansPlaceholder': 'p. ex. nos meetups mensuels à Bâle, une douzaine par an',
  'add.website': 'Site web (facultatif)',
  'add.submitKey': 'Demander une clé',
  'add.moderationHeading': 'Ce que l’opérateur vérifie',
  'add.moderation':
    'Que le calendrier ou l’organisation appartient à une communauté tech, que ses événements sont publics et ont lieu en Suisse, en Allemagne ou en Autriche (ou en ligne), qu’ils sont ce qu’ils disent être, et que rien n’est listé deux fois. Un refus dit pourquoi, sur la page de suivi.',
  'add.errorsTitle': 'Veuillez vérifier :',
  'add.field':
    '{field, select, url {Adresse du calendrier} city {Ville} country {Pays} name {Nom du groupe} organisation {Organisation} plans {Ce que vous publierez} website {Site web} other {Champ}}',
  'add.privateAddress':
    'Cette adresse est sur un réseau privé ou local : le service ne lit que des adresses publiques, et ne s’y est pas connecté.',
  'add.rateLimited':
    'Trop de propositions depuis votre adresse pour le moment : veuillez réessayer dans {minutes, plural, one {# minute} other {# minutes}}.',
  'add.full':
    'Beaucoup de propositions attendent l’opérateur en ce moment, et aucune autre n’est prise avant qu’il les ait examinées : veuillez réessayer plus tard.',
  'add.link': 'Ajoutez votre communauté',
  'add.missing': 'Le calendrier de votre communauté manque ? {link}.',

  'proposal.title': 'Votre proposition',
  'proposal.headingCalendar': 'Un calendrier proposé',
  'proposal.headingKey': 'Une demande de clé d’organisateur',
  'proposal.keep': 'Gardez l’adresse de cette page : c’est le seul moyen de revenir à cette proposition.',
  'proposal.state':
    '{state, select, reading {En cours de lecture} waiting {En attente de l’opérateur} accepted {Acceptée} rejected {Refusée} removed {Retirée} other {Inconnu}}',
  'proposal.stateLabel': 'État',
  'proposal.sent': 'Envoyée',
  'proposal.reading':
    'Le service lit le calendrier en ce moment. Cette page se recharge d’elle-même dans quelques secondes ; ou {reload}.',
  'proposal.reload': 'rechargez-la',
  'proposal.pending': 'L’opérateur n’a pas encore décidé ; cette page affichera sa décision.',
  'proposal.acceptedCalendar':
    'Acceptée le {date} : le calendrier est synchronisé avec les autres et ses événements sont listés.',
  'proposal.acceptedKey': 'Acceptée le {date}.',
  'proposal.rejected': 'Refusée le {date}.',
  'proposal.removed': 'Retirée le {date} : ses événements à venir ne sont plus listés.',
  'proposal.reason': 'La raison de l’opérateur',
  'proposal.keyOnce': 'Votre clé d’organisateur. Copiez-la maintenant : elle n’est montrée que cette fois.',
  'proposal.keyUse': 'Envoyez-la en {header} avec chaque écriture dans l’API.',
  'proposal.keyShown': 'La clé a été montrée ici le {date}, une fois. Si elle est perdue, demandez-en une nouvelle.',
  'proposal.address': 'Adresse',
  'proposal.read': 'Lu comme',
  'proposal.platform':
    '{platform, select, meetup {le calendrier d’un groupe Meetup} luma {un calendrier Luma} google {un agenda Google} bevy {les événements d’un chapitre Bevy} other {un calendrier iCal}}',
  'proposal.where': 'Lieu, quand ses événements ne le disent pas',
  'proposal.name': 'Nom du groupe',
  'proposal.organisation': 'Organisation',
  'proposal.plans': 'Ce qu’elle publiera',
  'proposal.website': 'Site web',
  'proposal.previewHeading': 'Ce que nous avons lu',
  'proposal.previewState':
    '{state, select, ok {Le calendrier se lit bien.} empty {Le calendrier se lit, mais ne contient aucun événement à venir.} gone {Le calendrier n’existe plus (son serveur répond qu’il n’existe pas).} failing {Le calendrier n’a pas pu être lu.} other {Ce n’est pas un calendrier iCal.}}',
  'proposal.previewCount':
    '{count, plural, =0 {Aucun événement à venir.} one {# événement à venir ; il listerait :} other {# événements à venir ; les prochains qu’il listerait :}}',
  'proposal.cut': 'La lecture s’est arrêtée à l’une de ses limites et a gardé les premiers événements :',
  'proposal.synced':
    '{synced, select, feeds {Il est déjà synchronisé : il figure dans la liste de calendriers du service.} host {Il est déjà synchronisé : un organisateur l’a relié.} community {Il est déjà synchronisé : il a déjà été proposé et accepté.} other {Il n’est pas encore synchronisé.}}',
  'proposal.placeFrom':
    '{from, select, event {lieu donné par l’événement} description {lieu trouvé dans sa description} calendar {lieu de la ville indiquée pour le calendrier} online {en ligne} other {lieu inconnu}}',
  'proposal.online': 'En ligne',
  'proposal.noPlace': 'aucun lieu',
  'proposal.notFound': 'Il n’y a pas de proposition « {id} » ici.',
  'proposal.again': 'Proposer autre chose',

  'admin.title': 'Modération',
  'admin.signIn':
    'Connectez-vous avec le jeton d’administration comme mot de passe (le nom d’utilisateur n’est pas vérifié). Sans lui, cette page ne montre rien.',
  'admin.pendingHeading': 'En attente d’une décision ({count, number})',
  'admin.none': 'Rien n’attend.',
  'admin.accept': 'Accepter',
  'admin.reject': 'Refuser',
  'admin.remove': 'Retirer',
  'admin.reason': 'Raison',
  'admin.reasonOptional': 'Raison (facultative)',
  'admin.acceptedHeading': 'Calendriers de communautés acceptés ({count, number})',
  'admin.logHeading': 'Décisions récentes',
  'admin.logColumn': '{column, select, at {Quand} actor {Qui} action {Quoi} proposal {Proposition} other {Raison}}',
  'admin.actor':
    '{actor, select, cli {ligne de commande} adminPage {page d’administration} adminApi {API d’administration} other {{actor}}}',
  'admin.action':
    '{action, select, accept {acceptée} reject {refusée} remove {retirée} propose {proposée} other {{action}}}',
  'admin.kind': '{kind, select, calendar {calendrier} other {clé d’organisateur}}',
  'admin.noLog': 'Aucune décision pour l’instant.',
  'admin.crossOrigin': 'Refusé : ce formulaire n’a pas été envoyé depuis une page de ce site.',
};
