import type { enAdd } from './add.en.js';

/** German messages of `/add`, `/add/<id>` and `/admin` (see add.en.ts). */
export const deAdd: Record<keyof typeof enAdd, string> = {
  'add.title': 'Eure Community eintragen',
  'add.description':
    'Schlagt den Kalender eurer Gruppe für den Katalog vor oder beantragt einen Veranstalter-Schlüssel, um eure Veranstaltungen selbst einzutragen. Nichts Persönliches wird erfragt.',
  'add.intro':
    'Hier tragen Communities sich selbst ein. Jeder Vorschlag wartet auf den Betreiber, der ihn ansieht, bevor etwas gelistet wird.',
  'add.private':
    'Nichts Persönliches wird erfragt oder gespeichert: keine E-Mail, kein Name, kein Konto. Die Adresse der Statusseite, die ihr bekommt, ist eure einzige Quittung: bewahrt sie auf.',
  'add.calendarHeading': 'Einen Kalender vorschlagen',
  'add.calendarHelp':
    'Wir lesen den Kalender jetzt einmal und zeigen euch, was er listen würde. Sobald der Betreiber ihn annimmt, wird er mit den anderen abgeglichen.',
  'add.accepted': 'Diese Adressen werden angenommen:',
  'add.acceptedMeetup': 'die Seite einer Meetup-Gruppe, z. B. {example}',
  'add.acceptedLuma': 'der iCal-Link eines Luma-Kalenders („Abonnieren“ → „iCal“)',
  'add.acceptedGoogle': 'ein öffentlicher Google-Kalender: seine öffentliche Adresse oder sein Einbettungslink',
  'add.acceptedBevy': 'die Seite eines Bevy-Chapters: Google Developer Groups ({gdg}) oder CNCF ({cncf})',
  'add.acceptedIcal': 'jede andere iCal-Adresse (https:// oder webcal://)',
  'add.url': 'Adresse des Kalenders',
  'add.city': 'Stadt, für Veranstaltungen ohne Ortsangabe',
  'add.country': 'Land, für Veranstaltungen ohne Angabe',
  'add.countryNone': 'keine Angabe',
  'add.name': 'Name der Gruppe (freiwillig)',
  'add.submitCalendar': 'Diesen Kalender vorschlagen',
  'add.keyHeading': 'Einen Veranstalter-Schlüssel beantragen',
  'add.keyHelp':
    'Mit einem Veranstalter-Schlüssel veröffentlicht und ändert eure Organisation ihre eigenen Veranstaltungen über die API (oder verknüpft ihre Kalender). Nimmt der Betreiber an, wird der Schlüssel einmal auf eurer Statusseite gezeigt.',
  'add.organisation': 'Organisation',
  'add.keyCountry': 'Land',
  'add.plans': 'Was ihr veröffentlichen werdet',
  'add.plansPlaceholder': 'z. B. unsere monatlichen Meetups in Basel, etwa zwölf im Jahr',
  'add.website': 'Website (freiwillig)',
  'add.submitKey': 'Schlüssel beantragen',
  'add.moderationHeading': 'Was der Betreiber prüft',
  'add.moderation':
    'Dass der Kalender oder die Organisation zu einer Tech-Community gehört, dass ihre Veranstaltungen öffentlich sind und in der Schweiz, in Deutschland oder in Österreich (oder online) stattfinden, dass sie sind, was sie sagen, und dass nichts doppelt gelistet wird. Eine Ablehnung nennt ihren Grund auf der Statusseite.',
  'add.errorsTitle': 'Bitte prüfen:',
  'add.field':
    '{field, select, url {Adresse des Kalenders} city {Stadt} country {Land} name {Name der Gruppe} organisation {Organisation} plans {Was ihr veröffentlichen werdet} website {Website} other {Feld}}',
  'add.privateAddress':
    'Diese Adresse liegt in einem privaten oder lokalen Netz: Der Dienst liest nur öffentliche Adressen und hat sich nicht mit ihr verbunden.',
  'add.rateLimited':
    'Gerade zu viele Vorschläge von eurer Adresse: Bitte versucht es in {minutes, plural, one {# Minute} other {# Minuten}} wieder.',
  'add.full':
    'Gerade warten viele Vorschläge auf den Betreiber, und bis er sie angesehen hat, werden keine weiteren angenommen: Bitte versucht es später wieder.',
  'add.link': 'Eure Community eintragen',
  'add.missing': 'Fehlt der Kalender eurer Community? {link}.',

  'proposal.title': 'Euer Vorschlag',
  'proposal.headingCalendar': 'Ein vorgeschlagener Kalender',
  'proposal.headingKey': 'Ein Antrag auf einen Veranstalter-Schlüssel',
  'proposal.keep': 'Bewahrt die Adresse dieser Seite auf: Nur über sie findet ihr diesen Vorschlag wieder.',
  'proposal.state':
    '{state, select, reading {Wird gelesen} waiting {Wartet auf den Betreiber} accepted {Angenommen} rejected {Abgelehnt} removed {Entfernt} other {Unbekannt}}',
  'proposal.stateLabel': 'Stand',
  'proposal.sent': 'Gesendet',
  'proposal.reading':
    'Der Dienst liest den Kalender gerade. Diese Seite lädt sich in ein paar Sekunden selbst neu; oder {reload}.',
  'proposal.reload': 'jetzt neu laden',
  'proposal.pending': 'Der Betreiber hat noch nicht entschieden; diese Seite wird die Entscheidung zeigen.',
  'proposal.acceptedCalendar':
    'Angenommen am {date}: Der Kalender wird mit den anderen abgeglichen, seine Veranstaltungen sind gelistet.',
  'proposal.acceptedKey': 'Angenommen am {date}.',
  'proposal.rejected': 'Abgelehnt am {date}.',
  'proposal.removed': 'Entfernt am {date}: Seine kommenden Veranstaltungen sind nicht mehr gelistet.',
  'proposal.reason': 'Begründung des Betreibers',
  'proposal.keyOnce': 'Euer Veranstalter-Schlüssel. Kopiert ihn jetzt: Er wird nur dieses eine Mal gezeigt.',
  'proposal.keyUse': 'Sendet ihn als {header} mit jedem Schreibzugriff auf die API.',
  'proposal.keyShown': 'Der Schlüssel wurde hier am {date} einmal gezeigt. Ist er verloren, beantragt einen neuen.',
  'proposal.address': 'Adresse',
  'proposal.read': 'Gelesen als',
  'proposal.platform':
    '{platform, select, meetup {Kalender einer Meetup-Gruppe} luma {Luma-Kalender} google {Google-Kalender} bevy {Veranstaltungen eines Bevy-Chapters} other {iCal-Kalender}}',
  'proposal.where': 'Ort, wenn seine Veranstaltungen keinen nennen',
  'proposal.name': 'Name der Gruppe',
  'proposal.organisation': 'Organisation',
  'proposal.plans': 'Was sie veröffentlichen wird',
  'proposal.website': 'Website',
  'proposal.previewHeading': 'Was wir gelesen haben',
  'proposal.previewState':
    '{state, select, ok {Der Kalender lässt sich gut lesen.} empty {Der Kalender lässt sich lesen, hat aber keine kommenden Veranstaltungen.} gone {Den Kalender gibt es nicht mehr (sein Server sagt, er existiert nicht).} failing {Der Kalender konnte nicht gelesen werden.} other {Das ist kein iCal-Kalender.}}',
  'proposal.previewCount':
    '{count, plural, =0 {Keine kommenden Veranstaltungen.} one {# kommende Veranstaltung; er würde listen:} other {# kommende Veranstaltungen; die nächsten, die er listen würde:}}',
  'proposal.cut': 'Das Lesen hielt an einer seiner Grenzen an und behielt die ersten Veranstaltungen:',
  'proposal.synced':
    '{synced, select, feeds {Er wird schon abgeglichen: Er steht in der Kalenderliste des Dienstes.} host {Er wird schon abgeglichen: Ein Veranstalter hat ihn verknüpft.} community {Er wird schon abgeglichen: Er wurde schon vorgeschlagen und angenommen.} other {Er wird noch nicht abgeglichen.}}',
  'proposal.placeFrom':
    '{from, select, event {Ort aus der Veranstaltung} description {Ort aus ihrer Beschreibung} calendar {Ort aus der für den Kalender angegebenen Stadt} online {online} other {Ort unbekannt}}',
  'proposal.online': 'Online',
  'proposal.noPlace': 'kein Ort',
  'proposal.notFound': 'Hier gibt es keinen Vorschlag „{id}“.',
  'proposal.again': 'Noch etwas vorschlagen',

  'admin.title': 'Moderation',
  'admin.signIn':
    'Meldet euch mit dem Admin-Token als Passwort an (der Benutzername wird nicht geprüft). Ohne ihn zeigt diese Seite nichts.',
  'admin.pendingHeading': 'Warten auf eine Entscheidung ({count, number})',
  'admin.none': 'Nichts wartet.',
  'admin.accept': 'Annehmen',
  'admin.reject': 'Ablehnen',
  'admin.remove': 'Entfernen',
  'admin.reason': 'Begründung',
  'admin.reasonOptional': 'Begründung (freiwillig)',
  'admin.acceptedHeading': 'Angenommene Community-Kalender ({count, number})',
  'admin.logHeading': 'Letzte Entscheidungen',
  'admin.logColumn': '{column, select, at {Wann} actor {Wer} action {Was} proposal {Vorschlag} other {Begründung}}',
  'admin.actor': '{actor, select, cli {Kommandozeile} adminPage {Admin-Seite} adminApi {Admin-API} other {{actor}}}',
  'admin.action':
    '{action, select, accept {angenommen} reject {abgelehnt} remove {entfernt} propose {vorgeschlagen} other {{action}}}',
  'admin.kind': '{kind, select, calendar {Kalender} other {Veranstalter-Schlüssel}}',
  'admin.noLog': 'Noch keine Entscheidungen.',
  'admin.crossOrigin': 'Abgelehnt: Dieses Formular wurde nicht von der eigenen Seite dieser Website gesendet.',
};
