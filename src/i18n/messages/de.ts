import { deAdd } from './add.de.js';
import type { Messages } from './en.js';
import { deMe } from './me.de.js';
import { deOAuth } from './oauth.de.js';

const IN =
  '{country, select, ch {in der Schweiz} de {in Deutschland} all {in der Schweiz, in Deutschland und in Österreich} other {in Österreich}}';

export const de: Messages = {
  'site.name': 'Tech-Events',
  'site.countries': 'Schweiz · Deutschland · Österreich',
  'site.languages': 'Sprache',
  'site.footer':
    'Frei und offen: {api} · {openapi} · MCP unter {mcp}. Wir verkaufen keine Tickets; jede Veranstaltung verlinkt auf ihren Veranstalter.',
  'site.labelled': '{label}: {value}',
  'site.api': 'API',
  'site.dataAsOf': 'Datenstand: {sources}.',
  'site.sourceAsOf': '{source} {time}',
  'site.sourceSnapshot': '{source} {date} (mitgelieferter Stand)',
  'site.sourceNotRead': '{source} noch nicht gelesen',
  'site.sourceNotReadNext': '{source} noch nicht gelesen, nächster Versuch {time}',

  'coverage.heading': 'Warum diese Liste kurz sein kann',
  'coverage.calendarsNotRead':
    '{count, plural, one {# Kalender} other {# Kalender}} von {source} noch nicht gelesen: {names}',
  'coverage.calendarsFailing':
    '{count, plural, one {# Kalender} other {# Kalender}} von {source} scheitern seit {since}: {names}',
  'coverage.calendarsFailingNever':
    '{count, plural, one {# Kalender} other {# Kalender}} von {source} scheitern, noch nie gelesen: {names}',
  'coverage.sourceNotRead': '{source} noch nicht gelesen',
  'coverage.sourceFailing': '{source} scheitert seit {since}',
  'coverage.sourceFailingNever': '{source} scheitert, noch nie gelesen',
  'coverage.sourceFailingSnapshot':
    '{source} scheitert, noch nie gelesen: geladen ist der mitgelieferte Stand vom {date}',
  'coverage.snapshot': '{source}: nur der mitgelieferte Stand, mit Daten vom {date}',
  'coverage.more': 'und {count} weitere',
  'coverage.syncOff':
    'Der Abgleich der Quellen ist in diesem Dienst ausgeschaltet: Niemand liest sie, bis jemand einen Abgleich startet.',
  'coverage.syncPending':
    'Der Dienst liest sie nach seinem Zeitplan: Er hat es noch nicht getan oder erreicht sie nicht (kein Netzzugang).',
  'coverage.held': 'Was der Katalog jetzt enthält:',
  'coverage.country':
    '{country}: {count, plural, =0 {keine kommenden Veranstaltungen} one {# kommende Veranstaltung} other {# kommende Veranstaltungen}}',
  'coverage.countryMonths':
    '{country}: {count, plural, one {# kommende Veranstaltung} other {# kommende Veranstaltungen}}, die nächsten: {months}',
  'coverage.sources': 'Jede Quelle und jeder Kalender mit Zustand: {link}.',
  'coverage.sourcesLink': 'Quellen',

  'country.name':
    '{country, select, ch {Schweiz} de {Deutschland} all {Schweiz, Deutschland und Österreich} other {Österreich}}',
  'country.in': IN,

  'home.title': `Tech-Events ${IN}`,
  'home.description':
    'Tech-Events in der Schweiz, in Deutschland und Österreich finden – in eigenen Worten, auf Deutsch, Englisch, Französisch oder Italienisch.',
  'search.title': '{q} · Tech-Events',
  'search.label': 'Wonach suchen Sie?',
  'search.placeholder': 'z. B. KI-Meetups in Zürich für Gründer nächste Woche',
  'search.country': 'Land',
  'search.city': 'Ort',
  'search.cityAny': 'beliebig',
  'search.topic': 'Thema',
  'search.format': 'Format',
  'search.any': 'alle',
  'search.audience': 'Zielgruppe',
  'search.everyone': 'alle',
  'search.founders': 'Gründer & Führungskräfte',
  'search.submit': 'Suchen',
  'search.folded': 'Ihre Suche: {q}',
  'search.change': 'ändern',

  'errors.title': 'Bitte prüfen:',
  'errors.city': `„{value}“ kennen wir nicht als Ort ${IN}.`,
  'errors.item': '{field}: {message}',
  'errors.tooLong': 'Das ist zu lang.',
  'errors.invalid': '„{value}“ ist hier kein gültiger Wert.',
  'errors.date': '„{value}“ ist kein Datum: bitte als Jahr-Monat-Tag schreiben, z. B. 2027-04-14.',
  'errors.field':
    '{field, select, q {Suche} country {Land} city {Ort} topic {Thema} format {Format} who {Zielgruppe} seniority {Erfahrungsstufe} near {Umkreis} org {Veranstalter} limit {Anzahl Ergebnisse} from {Ab} to {Bis} cfp {Call for Papers} other {Feld}}',

  'results.count': '{count, plural, =0 {keine Veranstaltungen} one {# Veranstaltung} other {# Veranstaltungen}}',
  'results.upcoming': `Kommende Veranstaltungen ${IN}`,
  'results.lookingFor': 'Gesucht: {query}',
  'results.summary': '{understood} – {count}.',
  'results.outputs': 'Diese Liste als {markdown} · {json} · Kalender {https} / {webcal} · {feed}',
  'results.feed': 'Atom-Feed',
  'map.caption': 'Wo diese Veranstaltungen stattfinden, nach Stadt',
  'map.marker': '{place}: {count, plural, one {# Veranstaltung} other {# Veranstaltungen}}',
  'embed.none': 'Keine kommenden Veranstaltungen passen zu dieser Suche.',
  'embed.more': 'Diese Suche auf tech-events',
  'embed.failed': 'Die Veranstaltungen konnten gerade nicht geladen werden.',
  'embed.title': 'Diese Liste einbetten',
  'embed.help':
    'Fügen Sie dies in eine beliebige Webseite ein, um diese Liste dort aktuell zu zeigen; ein Schlüssel ist nicht nötig:',
  'results.markdown': 'Markdown',
  'results.order': 'Reihenfolge',
  'results.byRelevance': 'beste Treffer zuerst',
  'results.byDate': 'nach Datum',
  'results.heading': 'Ergebnisse',
  'results.why': 'Warum es passt',
  'results.alsoListedAt': 'Auch gelistet bei {sites}',

  'restate.head': '{kind} {subject}, {price}, {format}, {formatExactly}',
  'restate.about': 'zu {subject}',
  'restate.withTopic': '{subject} (Thema {topics})',
  'restate.events': 'Veranstaltungen',
  'restate.upcoming': 'kommende Veranstaltungen',
  'restate.tail': ', {part}',
  'restate.level':
    '{level, select, student {Studierende} junior {Einsteiger & Juniors} mid {Fortgeschrittene} senior {Erfahrene & Fachleute} other {Führungskräfte}}',
  'restate.titled': 'Die Veranstaltung „{phrase}“, dann {rest}',

  'period.today': 'Heute',
  'period.tomorrow': 'Morgen',
  'period.thisWeek': 'Diese Woche',
  'period.nextWeek': 'Nächste Woche',
  'period.thisWeekend': 'Dieses Wochenende',
  'period.nextWeekend': 'Nächstes Wochenende',
  'day.heading': '{period} · {date}',
  'window.span': '{period} ({range})',

  'when.at': '{date} · {time}',
  'when.allDay': 'ganztägig',
  'when.until': '{when}, bis {last}',
  'where.online': 'Online',
  'where.tba': 'Ort folgt',
  'where.alsoOnline': '{place} · auch online',

  'topic.ai-ml': 'KI & ML',
  'topic.data': 'Daten',
  'topic.cloud-devops': 'Cloud & DevOps',
  'topic.security': 'Sicherheit',
  'topic.web': 'Web',
  'topic.mobile': 'Mobile',
  'topic.programming-languages': 'Programmiersprachen',
  'topic.architecture': 'Softwarearchitektur & APIs',
  'topic.testing': 'Testen & QS',
  'topic.open-source': 'Open Source',
  'topic.blockchain': 'Blockchain & Krypto',
  'topic.fintech': 'Fintech',
  'topic.healthtech': 'Digitale Gesundheit',
  'topic.biotech': 'Biotech & Life Sciences',
  'topic.climate': 'Klima & Nachhaltigkeit',
  'topic.hardware-iot': 'Hardware, IoT & Embedded',
  'topic.robotics': 'Robotik',
  'topic.quantum': 'Quantentechnologie',
  'topic.gaming': 'Gaming & XR',
  'topic.product': 'Produkt & Agilität',
  'topic.design': 'Design & UX',
  'topic.startups': 'Start-ups',
  'topic.leadership': 'Engineering-Leadership',
  'topic.career': 'Karriere & Diversität',
  'topic.general': 'Tech allgemein',

  'format.in_person': 'Vor Ort',
  'format.online': 'Online',
  'format.hybrid': 'Hybrid',

  'kind.meetup': 'Meetup',
  'kind.conference': 'Konferenz',
  'kind.workshop': 'Workshop / Schulung',
  'kind.hackathon': 'Hackathon',
  'kind.talk': 'Vortrag / Webinar',
  'kind.networking': 'Networking',

  'price.free': 'Kostenlos',
  'price.paid': 'Kostenpflichtig',
  'price.unknown': 'Preis nicht angegeben',

  'language.label': 'Sprache',
  'language.in': 'Auf {languages}',
  'cfp.open': 'Call for Papers offen bis {date}',
  'cfp.openNoDeadline': 'Call for Papers offen',

  'search.allCountries': 'Alle drei Länder',
  'results.applied':
    'Gesucht {country, select, ch {in der Schweiz} de {in Deutschland} all {in allen drei Ländern} other {in Österreich}}, wie Ihre Suche es verlangt, statt im Land, das im Menü gewählt ist.',
  'alternatives.heading': 'Knapp daneben',
  'alternatives.intro': 'Das sind keine Treffer: Jede dieser Veranstaltungen verfehlt eine Sache, nach der Sie suchen.',
  'alternatives.differs': 'Anders: {what}',
  'alternatives.none': 'Nichts passt zu allem.',
  'alternatives.widen': 'Ohne „{what}“: {count, plural, one {# Veranstaltung} other {# Veranstaltungen}}',
  'alternatives.nothingClose': 'Auch nichts verfehlt nur eine Sache: Suchen Sie nach weniger.',
  'empty.country': `Zurzeit stehen ${IN} keine Veranstaltungen an.`,
  'empty.nothing': 'Der Katalog hat noch keine kommenden Veranstaltungen.',

  'event.cancelledTitle': 'Abgesagt: {title}',
  'event.cancelled': 'Diese Veranstaltung wurde vom Veranstalter abgesagt.',
  'event.cancelledKept': 'Die Seite bleibt bestehen, damit Links weiter funktionieren.',
  'event.cta': 'Tickets & Anmeldung beim Veranstalter',
  'event.original': 'Ursprüngliche Seite des Veranstalters',
  'event.when': 'Wann',
  'event.where': 'Wo',
  'event.map': 'Auf OpenStreetMap zeigen',
  'event.host': 'Veranstalter',
  'event.unknownOrganizer': 'Veranstalter nicht angegeben',
  'event.price': 'Preis',
  'event.noTickets': 'wir verkaufen keine Tickets, das tut der Veranstalter.',
  'event.topics': 'Themen',
  'event.format': 'Format',
  'event.registration': 'Anmeldung',
  'event.cfp': 'Call for Papers',
  'event.about': 'Beschreibung',
  'event.addToCalendar': 'In den Kalender eintragen',
  'event.google': 'Google Kalender',
  'event.outlook': 'Outlook.com',
  'event.office': 'Outlook (Microsoft 365)',
  'event.apple': 'Apple Kalender, Thunderbird und andere (.ics)',
  'event.webcal': 'Abonnieren (webcal)',
  'event.alsoListedAt': 'Auch gelistet bei',
  'event.backToSearch': `Alle Veranstaltungen ${IN}`,

  'registration.open': 'Offen',
  'registration.invite': 'Auf Einladung',
  'registration.waitlist': 'Warteliste',
  'registration.cancelled': 'Keine: Die Veranstaltung ist abgesagt',

  'sources.heading': 'Quellen',
  'sources.description':
    'Woher die Veranstaltungen dieses Katalogs stammen, unter welcher Lizenz, und wie aktuell jede Quelle ist.',
  'sources.syncHours': 'Die Quellen werden {hours, plural, one {jede Stunde} other {alle # Stunden}} abgeglichen.',
  'sources.syncMinutes': 'Die Quellen werden {minutes, plural, one {jede Minute} other {alle # Minuten}} abgeglichen.',
  'sources.syncOff': 'Der Abgleich ist in diesem Dienst ausgeschaltet.',
  'sources.json': 'Auch als JSON: {link}.',
  'sources.never': 'nie',
  'sources.column':
    '{column, select, source {Quelle} kind {Art} licence {Lizenz} state {Zustand} dataAsOf {Datenstand} lastAttempt {Letzter Versuch} upcoming {Bevorstehend} other {Abgesagt}}',
  'sources.kind': '{kind, select, host {von Veranstaltern gesendet} other {importiert}}',
  'sources.state':
    '{state, select, off {aus (in der Quellendatei aufgeführt, wird nicht abgeglichen)} ok {in Ordnung} snapshot {mitgelieferter Stand, noch nicht abgeglichen} pending {noch nicht abgeglichen} other {—}}',
  'sources.failing': 'fehlerhaft ({failures, plural, one {# Durchlauf} other {# Durchläufe}}):',
  'sources.notRead': 'noch nicht gelesen',
  'sources.notReadFailed': 'noch nicht gelesen:',
  'sources.nextTry': 'nächster Versuch {time}',
  'sources.calendarsNotRead':
    'Noch keiner dieser Kalender wurde gelesen, ihre Termine sind daher nicht aufgeführt; nächster Versuch {time}.',
  'sources.snapshotOf': 'Stand vom {date}',
  'sources.calendarsHeading': 'Die {count} Kalender von {source}',
  'sources.calendarColumn':
    '{column, select, calendar {Kalender} city {Ort} state {Zustand} lastChanged {Zuletzt geändert} other {Bevorstehend}}',
  'sources.proposedByCommunity': 'von seiner Community vorgeschlagen, aufgenommen am {date}',
  'sources.calendarState':
    '{state, select, ok {in Ordnung} pending {noch nicht abgeglichen} gone {verschwunden (seine Termine bleiben):} unread {noch nicht gelesen:} other {fehlerhaft (seine Termine bleiben):}}',

  'sources.summary': '{count, plural, one {# Quelle} other {# Quellen}}: {parts}.',
  'sources.summaryPart':
    '{state, select, read {{count, plural, other {# gelesen}}} snapshot {{count, plural, other {# nur aus dem mitgelieferten Stand}}} failing {{count, plural, other {# fehlerhaft}}} unread {{count, plural, other {# noch nicht gelesen}}} off {{count, plural, other {# ausgeschaltet}}} other {{count, plural, other {# von Veranstaltern gesendet oder importiert}}}}',
  'sources.summaryCalendars': '{read, number} von {count, plural, one {# Kalender} other {# Kalendern}} gelesen.',
  'sources.calendarCount':
    '{state, select, ok {{count, number} in Ordnung} pending {{count, number} noch nicht abgeglichen} gone {{count, number} verschwunden} unread {{count, number} noch nicht gelesen} other {{count, number} fehlerhaft}}',
  'sources.cause':
    '{cause, select, refused {der Server hat die Verbindung abgelehnt} dns {der Server wurde nicht gefunden} network {die Netzverbindung brach ab} timeout {keine Antwort in der Zeit} http {der Server antwortete mit HTTP {status}} redirects {zu viele Weiterleitungen} tooLarge {die Antwort war zu groß} other {das Lesen ist fehlgeschlagen}}',
  'notFound.title': 'Nicht gefunden · Tech-Events',
  'notFound.heading': 'Nicht gefunden',
  'notFound.country': 'Hier gibt es kein Land „{country}“.',
  'notFound.event': `Es gibt keine Veranstaltung „{id}“ ${IN}.`,
  'notFound.search': 'Alle Veranstaltungen durchsuchen',
  ...deAdd,
  ...deOAuth,
  ...deMe,
};
