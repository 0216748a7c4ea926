import type { Seniority } from '../../catalogue/taxonomy.js';
import type { Phrase, Value, Words } from '../../catalogue/words.js';

/**
 * What the facets say, in every language side by side: why an event matches (reasons) and how a near miss differs.
 * The engine names these with their values (catalogue/words.ts, Phrase); the renderers say them, English for the
 * JSON, markdown and MCP outputs, the reader's language on pages. A new facet adds its words here.
 */
export const SAID = {
  upcoming: { en: 'Upcoming', de: 'Demnächst', fr: 'À venir', it: 'In programma' },
  titled: {
    en: 'Named by its title: “{title}”',
    de: 'Genannt mit seinem Titel: „{title}“',
    fr: 'Nommé par son titre\u00a0: «\u00a0{title}\u00a0»',
    it: 'Indicato dal suo titolo: «{title}»',
  },
  titleMentions: {
    en: 'Title mentions “{term}”',
    de: 'Titel nennt „{term}“',
    fr: 'Le titre mentionne «\u00a0{term}\u00a0»',
    it: 'Il titolo cita «{term}»',
  },
  descriptionMentions: {
    en: 'Description mentions “{term}”',
    de: 'Beschreibung nennt „{term}“',
    fr: 'La description mentionne «\u00a0{term}\u00a0»',
    it: 'La descrizione cita «{term}»',
  },
  topicMentions: {
    en: 'Topic mentions “{term}”',
    de: 'Thema nennt „{term}“',
    fr: 'Un thème mentionne «\u00a0{term}\u00a0»',
    it: 'Un tema cita «{term}»',
  },
  organizer: {
    en: 'Organizer: {name}',
    de: 'Veranstalter: {name}',
    fr: 'Organisateur\u00a0: {name}',
    it: 'Organizzatore: {name}',
  },
  at: { en: 'At {venue}', de: 'Ort: {venue}', fr: 'Lieu\u00a0: {venue}', it: 'Presso {venue}' },
  in: { en: 'In {place}', de: 'In {place}', fr: 'À {place}', it: 'A {place}' },
  distance: {
    en: '{km} km from {place}',
    de: '{km} km von {place}',
    fr: 'À {km}\u00a0km de {place}',
    it: 'A {km} km da {place}',
  },
  topic: { en: 'Topic: {topic}', de: 'Thema: {topic}', fr: 'Thème\u00a0: {topic}', it: 'Tema: {topic}' },
  relatedTopic: {
    en: 'Related topic: {topic}',
    de: 'Verwandtes Thema: {topic}',
    fr: 'Thème voisin\u00a0: {topic}',
    it: 'Tema affine: {topic}',
  },
  general: {
    en: 'General tech event',
    de: 'Allgemeines Tech-Event',
    fr: 'Événement tech généraliste',
    it: 'Evento tech generale',
  },
  when: { en: '{window}: {day}', de: '{window}: {day}', fr: '{window}\u00a0: {day}', it: '{window}: {day}' },
  format: { en: '{format}', de: '{format}', fr: '{format}', it: '{format}' },
  hybrid: {
    en: '{format, select, online {Hybrid: also online} other {Hybrid: also in person}}',
    de: '{format, select, online {Hybrid: auch online} other {Hybrid: auch vor Ort}}',
    fr: '{format, select, online {Hybride\u00a0: aussi en ligne} other {Hybride\u00a0: aussi sur place}}',
    it: '{format, select, online {Ibrido: anche online} other {Ibrido: anche in presenza}}',
  },
  price: {
    en: '{price, select, free {Free} other {Paid}}',
    de: '{price, select, free {Kostenlos} other {Kostenpflichtig}}',
    fr: '{price, select, free {Gratuit} other {Payant}}',
    it: '{price, select, free {Gratuito} other {A pagamento}}',
  },
  founders: { en: 'For founders', de: 'Für Gründer', fr: 'Pour fondateurs', it: 'Per fondatori' },
  level: { en: 'For {level}', de: 'Für {level}', fr: 'Pour {level}', it: 'Per {level}' },
  kind: { en: '{kind}', de: '{kind}', fr: '{kind}', it: '{kind}' },
  nearBase: {
    en: 'Near your base in {place}',
    de: 'In der Nähe Ihres Orts {place}',
    fr: 'Près de chez vous, à {place}',
    it: 'Vicino a te, a {place}',
  },
  distanceFromBase: {
    en: '{km} km from your base in {place}',
    de: '{km} km von Ihrem Ort {place}',
    fr: 'À {km} km de chez vous ({place})',
    it: 'A {km} km da te ({place})',
  },
  onlineFromBase: {
    en: 'Online: no travel from {place}',
    de: 'Online: keine Anreise ab {place}',
    fr: 'En ligne\u00a0: pas de trajet depuis {place}',
    it: 'Online: nessun viaggio da {place}',
  },
  worthTrip: {
    en: 'Worth the trip from {place}',
    de: 'Die Reise ab {place} wert',
    fr: 'Vaut le déplacement depuis {place}',
    it: 'Vale il viaggio da {place}',
  },
  language: {
    en: 'Language: {language}',
    de: 'Sprache: {language}',
    fr: 'Langue\u00a0: {language}',
    it: 'Lingua: {language}',
  },
  plain: { en: '{field}: {value}', de: '{field}: {value}', fr: '{field}\u00a0: {value}', it: '{field}: {value}' },
  cfpOpen: {
    en: 'Call for papers open',
    de: 'Call for Papers offen',
    fr: 'Appel à conférences ouvert',
    it: 'Call for paper aperta',
  },
  cfpOpenUntil: {
    en: 'Call for papers open until {date}',
    de: 'Call for Papers offen bis {date}',
    fr: 'Appel à conférences ouvert jusqu’au {date}',
    it: 'Call for paper aperta fino al {date}',
  },
} satisfies Record<string, Words>;

/** How a near miss differs from what was asked. */
export const DIFFERS = {
  /** English takes "a" or "an" by the English name of the subject: two words, the same in the other languages. */
  about: { en: 'a {topic} event', de: 'zu {topic}', fr: 'sur {topic}', it: 'su {topic}' },
  aboutVowel: { en: 'an {topic} event', de: 'zu {topic}', fr: 'sur {topic}', it: 'su {topic}' },
  generalEvent: {
    en: 'a general tech event',
    de: 'ein allgemeines Tech-Event',
    fr: 'un événement tech généraliste',
    it: 'un evento tech generale',
  },
  otherSubject: {
    en: 'on another subject',
    de: 'zu einem anderen Thema',
    fr: 'sur un autre sujet',
    it: 'su un altro argomento',
  },
  forLevels: { en: 'for {levels}', de: 'für {levels}', fr: 'pour {levels}', it: 'per {levels}' },
  notForFounders: {
    en: 'not for founders',
    de: 'nicht für Gründer',
    fr: 'pas pour fondateurs',
    it: 'non per fondatori',
  },
  forEveryone: { en: 'for everyone', de: 'für alle', fr: 'pour tous', it: 'per tutti' },
  onlineHostedIn: {
    en: 'online, hosted {country, select, ch {in Switzerland} de {in Germany} other {in Austria}}',
    de: 'online, ausgerichtet {country, select, ch {in der Schweiz} de {in Deutschland} other {in Österreich}}',
    fr: 'en ligne, organisé {country, select, ch {en Suisse} de {en Allemagne} other {en Autriche}}',
    it: 'online, organizzato {country, select, ch {in Svizzera} de {in Germania} other {in Austria}}',
  },
  cityInCountry: { en: '{city}, {name}', de: '{city}, {name}', fr: '{city}, {name}', it: '{city}, {name}' },
  inCountry: {
    en: '{country, select, ch {in Switzerland} de {in Germany} other {in Austria}}',
    de: '{country, select, ch {in der Schweiz} de {in Deutschland} other {in Österreich}}',
    fr: '{country, select, ch {en Suisse} de {en Allemagne} other {en Autriche}}',
    it: '{country, select, ch {in Svizzera} de {in Germania} other {in Austria}}',
  },
  online: { en: 'online', de: 'online', fr: 'en ligne', it: 'online' },
  city: { en: '{city}', de: '{city}', fr: '{city}', it: '{city}' },
  noPlace: { en: 'no place given', de: 'kein Ort angegeben', fr: 'aucun lieu indiqué', it: 'nessun luogo indicato' },
  cityDistance: {
    en: '{city}, {km} km from {place}',
    de: '{city}, {km} km von {place}',
    fr: '{city}, à {km}\u00a0km de {place}',
    it: '{city}, a {km} km da {place}',
  },
  elsewhereDistance: {
    en: 'elsewhere, {km} km from {place}',
    de: 'anderswo, {km} km von {place}',
    fr: 'ailleurs, à {km}\u00a0km de {place}',
    it: 'altrove, a {km} km da {place}',
  },
  onDay: {
    en: 'on {day}, not {window}',
    de: 'am {day}, nicht {window}',
    fr: 'le {day}, pas {window}',
    it: 'il {day}, non {window}',
  },
  inMonth: {
    en: 'in {month}, not {window}',
    de: 'im {month}, nicht {window}',
    fr: 'en {month}, pas {window}',
    it: 'a {month}, non {window}',
  },
  format: {
    en: '{format, select, in_person {in person} online {online} other {hybrid}}',
    de: '{format, select, in_person {vor Ort} online {online} other {hybrid}}',
    fr: '{format, select, in_person {sur place} online {en ligne} other {hybride}}',
    it: '{format, select, in_person {in presenza} online {online} other {ibrido}}',
  },
  price: {
    en: '{price, select, free {free} paid {paid} other {price not given}}',
    de: '{price, select, free {kostenlos} paid {kostenpflichtig} other {Preis nicht angegeben}}',
    fr: '{price, select, free {gratuit} paid {payant} other {prix non indiqué}}',
    it: '{price, select, free {gratuito} paid {a pagamento} other {prezzo non indicato}}',
  },
  kind: {
    en: '{kind, select, meetup {a meetup} conference {a conference} workshop {a workshop} hackathon {a hackathon} talk {a talk} other {a networking event}}',
    de: '{kind, select, meetup {ein Meetup} conference {eine Konferenz} workshop {ein Workshop} hackathon {ein Hackathon} talk {ein Vortrag} other {ein Networking-Event}}',
    fr: '{kind, select, meetup {un meetup} conference {une conférence} workshop {un atelier} hackathon {un hackathon} talk {un talk} other {un événement de networking}}',
    it: '{kind, select, meetup {un meetup} conference {una conferenza} workshop {un workshop} hackathon {un hackathon} talk {un talk} other {un evento di networking}}',
  },
  notKind: {
    en: '{kind, select, meetup {not a meetup} conference {not a conference} workshop {not a workshop} hackathon {not a hackathon} talk {not a talk} other {not a networking event}}',
    de: '{kind, select, meetup {kein Meetup} conference {keine Konferenz} workshop {kein Workshop} hackathon {kein Hackathon} talk {kein Vortrag} other {kein Networking-Event}}',
    fr: '{kind, select, meetup {pas un meetup} conference {pas une conférence} workshop {pas un atelier} hackathon {pas un hackathon} talk {pas un talk} other {pas un événement de networking}}',
    it: '{kind, select, meetup {non un meetup} conference {non una conferenza} workshop {non un workshop} hackathon {non un hackathon} talk {non un talk} other {non un evento di networking}}',
  },
} satisfies Record<string, Words>;

/** How a query is restated, part by part (query/restate.ts); render/restate.ts puts the parts in a sentence. */
export const RESTATE = {
  just: { en: '{value}', de: '{value}', fr: '{value}', it: '{value}' },
  price: {
    en: '{price, select, free {free} other {paid}}',
    de: '{price, select, free {kostenlos} other {kostenpflichtig}}',
    fr: '{price, select, free {entrée gratuite} other {entrée payante}}',
    it: '{price, select, free {gratis} other {a pagamento}}',
  },
  format: {
    en: '{format, select, hybrid {hybrid} online {online or hybrid} other {in-person or hybrid}}',
    de: '{format, select, hybrid {hybrid} online {online oder hybrid} other {vor Ort oder hybrid}}',
    fr: '{format, select, hybrid {en format hybride} online {en ligne ou en format hybride} other {sur place ou en format hybride}}',
    it: '{format, select, hybrid {in formato ibrido} online {online o in formato ibrido} other {in presenza o in formato ibrido}}',
  },
  formatExactly: {
    en: '{format, select, online {online} hybrid {hybrid} other {in person}}',
    de: '{format, select, online {online} hybrid {hybrid} other {vor Ort}}',
    fr: '{format, select, online {en ligne} hybrid {en format hybride} other {sur place}}',
    it: '{format, select, online {online} hybrid {in formato ibrido} other {in presenza}}',
  },
  for: {
    en: 'for {audience}',
    de: 'für {audience}',
    fr: 'pour {audience}',
    it: 'per {audience}',
  },
  founders: {
    en: 'founders',
    de: 'Gründer',
    fr: 'fondateurs',
    it: 'fondatori',
  },
  by: {
    en: 'by {org}',
    de: 'von {org}',
    fr: 'par {org}',
    it: 'di {org}',
  },
  in: {
    en: 'in {place}',
    de: 'in {place}',
    fr: 'à {place}',
    it: 'a {place}',
  },
  inOrNear: {
    en: 'in or near {place}',
    de: 'in oder nahe {place}',
    fr: 'à {place} ou dans les environs',
    it: 'a {place} o dintorni',
  },
  near: {
    en: 'near {place}',
    de: 'nahe {place}',
    fr: 'près de {place}',
    it: 'vicino a {place}',
  },
  within: {
    en: 'within {km} km of {place}',
    de: 'im Umkreis von {km} km um {place}',
    fr: 'à moins de {km}\u00a0km de {place}',
    it: 'entro {km} km da {place}',
  },
  cfp: {
    en: 'with an open call for papers',
    de: 'mit offenem Call for Papers',
    fr: 'avec appel à conférences ouvert',
    it: 'con call for paper aperto',
  },
  startsFrom: {
    en: 'starting from {from}',
    de: 'mit Beginn ab {from}',
    fr: 'commençant à partir du {from}',
    it: 'con inizio dal {from}',
  },
  startsUntil: {
    en: 'starting until {to}',
    de: 'mit Beginn bis {to}',
    fr: 'commençant jusqu’au {to}',
    it: 'con inizio fino al {to}',
  },
  startsBetween: {
    en: 'starting from {from} until {to}',
    de: 'mit Beginn von {from} bis {to}',
    fr: 'commençant entre le {from} et le {to}',
    it: 'con inizio dal {from} al {to}',
  },
  home: {
    en: 'nearest to your base in {place} first',
    de: 'die nächstgelegenen zu Ihrem Ort {place} zuerst',
    fr: 'les plus proches de chez vous, à {place}, d’abord',
    it: 'prima i più vicini a te, a {place}',
  },
  wished: {
    en: 'those held in {language} first',
    de: 'die auf {language} zuerst',
    fr: 'ceux en {language} d’abord',
    it: 'prima quelli in {language}',
  },
  matching: {
    en: 'matching {words}',
    de: 'passend zu {words}',
    fr: 'correspondant à {words}',
    it: 'che corrispondono a {words}',
  },
  mentioning: {
    en: 'those mentioning {words} first',
    de: 'die mit {words} zuerst',
    fr: 'ceux mentionnant {words} d’abord',
    it: 'prima quelli che menzionano {words}',
  },
  word: {
    en: '“{word}”',
    de: '„{word}“',
    fr: '«\u00a0{word}\u00a0»',
    it: '«{word}»',
  },
  kinds: {
    en: '{kind, select, meetup {meetups} conference {conferences} workshop {workshops} hackathon {hackathons} talk {talks} other {networking events}}',
    de: '{kind, select, meetup {Meetups} conference {Konferenzen} workshop {Workshops} hackathon {Hackathons} talk {Vorträge} other {Networking-Events}}',
    fr: '{kind, select, meetup {meetups} conference {conférences} workshop {ateliers} hackathon {hackathons} talk {talks} other {événements de networking}}',
    it: '{kind, select, meetup {meetup} conference {conferenze} workshop {workshop} hackathon {hackathon} talk {talk} other {eventi di networking}}',
  },
} satisfies Record<string, Words>;

/** One value of a restatement, said as it is in each language. */
export const just = (value: Value): Phrase => ({ words: RESTATE.just, values: { value } });

/** Founders and levels, as a restatement names an audience. */
export const audienceOf = (founders: boolean, levels: readonly Seniority[]): (Value | Phrase)[] => [
  ...(founders ? [{ words: RESTATE.founders }] : []),
  ...levels.map((level) => ({ level })),
];
