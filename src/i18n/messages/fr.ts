import { frAdd } from './add.fr.js';
import type { Messages } from './en.js';
import { frMe } from './me.fr.js';
import { frOAuth } from './oauth.fr.js';

// French typography: a no-break space before « : ; ? ! » and inside guillemets.
const IN =
  '{country, select, ch {en Suisse} de {en Allemagne} all {en Suisse, en Allemagne et en Autriche} other {en Autriche}}';

export const fr: Messages = {
  'site.name': 'Événements tech',
  'site.countries': 'Suisse · Allemagne · Autriche',
  'site.languages': 'Langue',
  'site.footer':
    'Libre et ouvert\u00a0: {api} · {openapi} · MCP sur {mcp}. Nous ne vendons aucun billet\u00a0; chaque événement renvoie à son organisateur.',
  'site.labelled': '{label}\u00a0: {value}',
  'site.api': 'API',
  'site.dataAsOf': 'État des données\u00a0: {sources}.',
  'site.sourceAsOf': '{source} {time}',
  'site.sourceSnapshot': '{source} {date} (instantané livré)',
  'site.sourceNotRead': '{source} pas encore lue',
  'site.sourceNotReadNext': '{source} pas encore lue, prochain essai {time}',

  'coverage.heading': 'Pourquoi cette liste peut être courte',
  'coverage.calendarsNotRead':
    '{count, plural, one {# calendrier} other {# calendriers}} de {source} pas encore lus : {names}',
  'coverage.calendarsFailing':
    '{count, plural, one {# calendrier} other {# calendriers}} de {source} en échec depuis le {since} : {names}',
  'coverage.calendarsFailingNever':
    '{count, plural, one {# calendrier} other {# calendriers}} de {source} en échec, jamais lus : {names}',
  'coverage.sourceNotRead': '{source} pas encore lue',
  'coverage.sourceFailing': '{source} en échec depuis le {since}',
  'coverage.sourceFailingNever': '{source} en échec, jamais lue',
  'coverage.sourceFailingSnapshot': '{source} en échec, jamais lue : son instantané livré du {date} est chargé',
  'coverage.snapshot': '{source} : seulement l’instantané livré, avec des données du {date}',
  'coverage.more': 'et {count} autres',
  'coverage.syncOff':
    'La synchronisation des sources est désactivée dans ce service : rien ne les lit tant que personne ne lance de synchronisation.',
  'coverage.syncPending':
    'Le service les lit selon son calendrier : il ne l’a pas encore fait, ou ne peut pas les joindre (pas d’accès au réseau).',
  'coverage.held': 'Ce que le catalogue contient maintenant :',
  'coverage.country':
    '{country} : {count, plural, =0 {aucun événement à venir} one {# événement à venir} other {# événements à venir}}',
  'coverage.countryMonths':
    '{country} : {count, plural, one {# événement à venir} other {# événements à venir}}, les prochains en {months}',
  'coverage.sources': 'Chaque source et chaque calendrier avec son état : {link}.',
  'coverage.sourcesLink': 'Sources',

  'country.name': '{country, select, ch {Suisse} de {Allemagne} all {Suisse, Allemagne et Autriche} other {Autriche}}',
  'country.in': IN,

  'home.title': `Événements tech ${IN}`,
  'home.description':
    'Trouvez des événements tech en Suisse, en Allemagne et en Autriche — avec vos propres mots, en français, en allemand, en italien ou en anglais.',
  'search.title': '{q} · Événements tech',
  'search.label': 'Que cherchez-vous\u00a0?',
  'search.placeholder': 'p. ex. meetups IA à Genève pour fondateurs la semaine prochaine',
  'search.country': 'Pays',
  'search.city': 'Ville',
  'search.cityAny': 'toutes',
  'search.topic': 'Thème',
  'search.format': 'Format',
  'search.any': 'tous',
  'search.audience': 'Public',
  'search.everyone': 'tout le monde',
  'search.founders': 'fondateurs et dirigeants',
  'search.submit': 'Rechercher',
  'search.folded': 'Votre recherche\u00a0: {q}',
  'search.change': 'modifier',

  'errors.title': 'Veuillez vérifier\u00a0:',
  'errors.city': `«\u00a0{value}\u00a0» n’est pas une ville que nous connaissons ${IN}.`,
  'errors.item': '{field}\u00a0: {message}',
  'errors.tooLong': 'C’est trop long.',
  'errors.invalid': '«\u00a0{value}\u00a0» n’est pas une valeur acceptée ici.',
  'errors.date': '«\u00a0{value}\u00a0» n’est pas une date\u00a0: écrivez-la année-mois-jour, p.\u00a0ex. 2027-04-14.',
  'errors.field':
    '{field, select, q {Recherche} country {Pays} city {Ville} topic {Thème} format {Format} who {Public} seniority {Niveau} near {Rayon} org {Organisateur} limit {Nombre de résultats} from {À partir du} to {Jusqu’au} cfp {Appel à conférences} other {Champ}}',

  'results.count': '{count, plural, =0 {aucun événement} one {# événement} other {# événements}}',
  'results.upcoming': `Événements à venir ${IN}`,
  'results.lookingFor': 'Recherche\u00a0: {query}',
  'results.summary': '{understood} — {count}.',
  'results.outputs': 'Cette liste en {markdown} · {json} · calendrier {https} / {webcal} · {feed}',
  'results.feed': 'flux Atom',
  'map.caption': 'Où ont lieu ces événements, par ville',
  'map.marker': '{place}\u00a0: {count, plural, one {# événement} other {# événements}}',
  'embed.none': 'Aucun événement à venir ne correspond à cette recherche.',
  'embed.more': 'Cette recherche sur tech-events',
  'embed.failed': 'Les événements n’ont pas pu être chargés pour le moment.',
  'embed.title': 'Intégrer cette liste',
  'embed.help':
    'Collez ceci dans n’importe quelle page web pour y afficher cette liste, toujours à jour\u00a0; aucune clé n’est nécessaire\u00a0:',
  'results.markdown': 'Markdown',
  'results.order': 'Ordre',
  'results.byRelevance': 'les plus pertinents d’abord',
  'results.byDate': 'par date',
  'results.heading': 'Résultats',
  'results.why': 'Pourquoi cet événement',
  'results.alsoListedAt': 'Également publié sur {sites}',

  'restate.head': '{kind} {subject}, {price}, {format}, {formatExactly}',
  'restate.about': 'sur {subject}',
  'restate.withTopic': '{subject} (thème {topics})',
  'restate.events': 'événements',
  'restate.upcoming': 'prochains événements',
  'restate.tail': ', {part}',
  'restate.level':
    '{level, select, student {étudiants} junior {juniors et débutants} mid {niveau intermédiaire} senior {seniors et experts} other {dirigeants et cadres}}',
  'restate.titled': 'L’événement intitulé «\u00a0{phrase}\u00a0», puis {rest}',

  'period.today': 'Aujourd’hui',
  'period.tomorrow': 'Demain',
  'period.thisWeek': 'Cette semaine',
  'period.nextWeek': 'La semaine prochaine',
  'period.thisWeekend': 'Ce week-end',
  'period.nextWeekend': 'Le week-end prochain',
  'day.heading': '{period} · {date}',
  'window.span': '{period} ({range})',

  'when.at': '{date} · {time}',
  'when.allDay': 'toute la journée',
  'when.until': '{when}, jusqu’au {last}',
  'where.online': 'En ligne',
  'where.tba': 'Lieu à venir',
  'where.alsoOnline': '{place} · aussi en ligne',

  'topic.ai-ml': 'IA & ML',
  'topic.data': 'Données',
  'topic.cloud-devops': 'Cloud & DevOps',
  'topic.security': 'Sécurité',
  'topic.web': 'Web',
  'topic.mobile': 'Mobile',
  'topic.programming-languages': 'Langages de programmation',
  'topic.architecture': 'Architecture logicielle & API',
  'topic.testing': 'Tests & QA',
  'topic.open-source': 'Open source',
  'topic.blockchain': 'Blockchain & crypto',
  'topic.fintech': 'Fintech',
  'topic.healthtech': 'Santé numérique',
  'topic.biotech': 'Biotech & sciences de la vie',
  'topic.climate': 'Climat & durabilité',
  'topic.hardware-iot': 'Hardware, IoT & embarqué',
  'topic.robotics': 'Robotique',
  'topic.quantum': 'Quantique',
  'topic.gaming': 'Jeux vidéo & XR',
  'topic.product': 'Produit & agilité',
  'topic.design': 'Design & UX',
  'topic.startups': 'Startups',
  'topic.leadership': 'Leadership technique',
  'topic.career': 'Carrières & diversité',
  'topic.general': 'Tech en général',

  'format.in_person': 'Sur place',
  'format.online': 'En ligne',
  'format.hybrid': 'Hybride',

  'kind.meetup': 'Meetup',
  'kind.conference': 'Conférence',
  'kind.workshop': 'Atelier / formation',
  'kind.hackathon': 'Hackathon',
  'kind.talk': 'Talk / webinaire',
  'kind.networking': 'Networking',

  'price.free': 'Gratuit',
  'price.paid': 'Payant',
  'price.unknown': 'Prix non indiqué',

  'language.label': 'Langue',
  'language.in': 'En {languages}',
  'cfp.open': 'Appel à conférences ouvert jusqu’au {date}',
  'cfp.openNoDeadline': 'Appel à conférences ouvert',

  'search.allCountries': 'Les trois pays',
  'results.applied':
    'Recherche {country, select, ch {en Suisse} de {en Allemagne} all {dans les trois pays} other {en Autriche}}, comme le demande votre recherche, plutôt que dans le pays choisi dans le menu.',
  'alternatives.heading': 'Presque',
  'alternatives.intro': 'Ce ne sont pas des résultats\u00a0: chacun manque une chose que vous avez demandée.',
  'alternatives.differs': 'Diffère\u00a0: {what}',
  'alternatives.none': 'Rien ne correspond à tout cela.',
  'alternatives.widen': 'Sans «\u00a0{what}\u00a0»\u00a0: {count, plural, one {# événement} other {# événements}}',
  'alternatives.nothingClose': 'Rien ne manque non plus une seule chose\u00a0: demandez moins.',
  'empty.country': `Rien de prévu ${IN} pour le moment.`,
  'empty.nothing': 'Le catalogue n’a pas encore d’événements à venir.',

  'event.cancelledTitle': 'Annulé\u00a0: {title}',
  'event.cancelled': 'Cet événement a été annulé par son organisateur.',
  'event.cancelledKept': 'La page reste en ligne pour que les liens continuent de fonctionner.',
  'event.cta': 'Billets et inscription sur le site de l’organisateur',
  'event.original': 'Page originale de l’organisateur',
  'event.when': 'Quand',
  'event.where': 'Où',
  'event.map': 'Voir sur OpenStreetMap',
  'event.host': 'Organisateur',
  'event.unknownOrganizer': 'Organisateur non indiqué',
  'event.price': 'Prix',
  'event.noTickets': 'nous ne vendons pas de billets, l’organisateur s’en charge.',
  'event.topics': 'Thèmes',
  'event.format': 'Format',
  'event.registration': 'Inscription',
  'event.cfp': 'Appel à conférences',
  'event.about': 'Description',
  'event.addToCalendar': 'Ajouter à votre agenda',
  'event.google': 'Google Agenda',
  'event.outlook': 'Outlook.com',
  'event.office': 'Outlook (Microsoft 365)',
  'event.apple': 'Calendrier Apple, Thunderbird et autres (.ics)',
  'event.webcal': 'S’abonner (webcal)',
  'event.alsoListedAt': 'Également publié sur',
  'event.backToSearch': `Tous les événements ${IN}`,

  'registration.open': 'Ouverte',
  'registration.invite': 'Sur invitation',
  'registration.waitlist': 'Liste d’attente',
  'registration.cancelled': 'Aucune\u00a0: l’événement est annulé',

  'sources.heading': 'Sources',
  'sources.description':
    'D’où viennent les événements de ce catalogue, sous quelle licence, et à quel point chaque source est à jour.',
  'sources.syncHours':
    'Les sources sont synchronisées {hours, plural, one {toutes les heures} other {toutes les # heures}}.',
  'sources.syncMinutes':
    'Les sources sont synchronisées {minutes, plural, one {toutes les minutes} other {toutes les # minutes}}.',
  'sources.syncOff': 'La synchronisation est désactivée dans ce service.',
  'sources.json': 'Aussi en JSON\u00a0: {link}.',
  'sources.never': 'jamais',
  'sources.column':
    '{column, select, source {Source} kind {Type} licence {Licence} state {État} dataAsOf {Données du} lastAttempt {Dernière tentative} upcoming {À venir} other {Annulés}}',
  'sources.kind': '{kind, select, host {envoyés par les organisateurs} other {importés}}',
  'sources.state':
    '{state, select, off {désactivée (dans le fichier des sources, non synchronisée)} ok {à jour} snapshot {instantané livré, pas encore synchronisée} pending {pas encore synchronisée} other {—}}',
  'sources.failing': 'en échec ({failures, plural, one {# tentative} other {# tentatives}})\u00a0:',
  'sources.notRead': 'pas encore lue',
  'sources.notReadFailed': 'pas encore lue\u00a0:',
  'sources.nextTry': 'prochain essai {time}',
  'sources.calendarsNotRead':
    'Aucun de ces calendriers n’a encore été lu, leurs événements ne sont donc pas listés\u00a0; prochain essai {time}.',
  'sources.snapshotOf': 'instantané du {date}',
  'sources.calendarsHeading': 'Les {count} calendriers de {source}',
  'sources.calendarColumn':
    '{column, select, calendar {Calendrier} city {Ville} state {État} lastChanged {Dernier changement} other {À venir}}',
  'sources.proposedByCommunity': 'proposé par sa communauté, accepté le {date}',
  'sources.calendarState':
    '{state, select, ok {à jour} pending {pas encore synchronisé} gone {disparu (ses événements restent)\u00a0:} unread {pas encore lu\u00a0:} other {en échec (ses événements restent)\u00a0:}}',

  'sources.summary': '{count, plural, one {# source} other {# sources}}\u00a0: {parts}.',
  'sources.summaryPart':
    '{state, select, read {{count, plural, one {# lue} other {# lues}}} snapshot {{count, plural, other {# seulement par l’instantané livré}}} failing {{count, plural, other {# en échec}}} unread {{count, plural, one {# pas encore lue} other {# pas encore lues}}} off {{count, plural, one {# désactivée} other {# désactivées}}} other {{count, plural, one {# envoyée par les organisateurs ou importée} other {# envoyées par les organisateurs ou importées}}}}',
  'sources.summaryCalendars': '{read, number} sur {count, plural, one {# calendrier lu} other {# calendriers lus}}.',
  'sources.calendarCount':
    '{state, select, ok {{count, number} en ordre} pending {{count, number} pas encore synchronisés} gone {{count, number} disparus} unread {{count, number} pas encore lus} other {{count, number} en échec}}',
  'sources.cause':
    '{cause, select, refused {le serveur a refusé la connexion} dns {son serveur est introuvable} network {la connexion a été coupée} timeout {pas de réponse à temps} http {le serveur a répondu HTTP {status}} redirects {trop de redirections} tooLarge {la réponse était trop grande} other {la lecture a échoué}}',
  'notFound.title': 'Introuvable · Événements tech',
  'notFound.heading': 'Introuvable',
  'notFound.country': 'Il n’y a pas de pays «\u00a0{country}\u00a0» ici.',
  'notFound.event': `Il n’y a pas d’événement «\u00a0{id}\u00a0» ${IN}.`,
  'notFound.search': 'Rechercher tous les événements',
  ...frAdd,
  ...frOAuth,
  ...frMe,
};
