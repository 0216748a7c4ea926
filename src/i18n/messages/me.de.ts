import type { enMe } from './me.en.js';

/** German messages of `/me` and the RSVP forms (see me.en.ts). */
export const deMe: Record<keyof typeof enMe, string> = {
  'me.title': 'Deine Anmeldungen',
  'me.description':
    'Melde dich mit einem Passkey für Veranstaltungen an, die ihre Veranstalter auf dieser Seite führen: kein Konto, keine E-Mail, kein Name. Deine Anmeldungen und dein privater Kalender.',
  'me.intro':
    'Veranstalter, die ihre Veranstaltungen auf dieser Seite führen, nehmen hier Anmeldungen an. Du meldest dich mit einem Passkey an, den dein Gerät erstellt: Nichts Persönliches wird erfragt oder gespeichert (keine E-Mail, kein Name), Veranstalter sehen nur ein zufälliges Kürzel.',
  'me.create': 'Passkey erstellen',
  'me.createHelp':
    'Neu hier: Dein Gerät erstellt einen Passkey für diese Seite, der dich mit einem zufälligen Kürzel nennt.',
  'me.signIn': 'Mit Passkey anmelden',
  'me.signInHelp': 'Schon einmal hier: Dein Gerät bietet den Passkey an, den du erstellt hast.',
  'me.noScript': 'Passkeys brauchen JavaScript im Browser: Diese Seite lädt ein kleines Skript dieser Seite.',
  'me.working': 'Warte auf dein Gerät …',
  'me.failed': 'Das hat nicht geklappt:',
  'me.signedInAs': 'Angemeldet als {handle}',
  'me.continue': 'Weiter, wo du warst',
  'me.rsvpsHeading': 'Deine Anmeldungen',
  'me.none':
    'Noch keine Anmeldungen. Veranstaltungen, die ihre Veranstalter auf dieser Seite führen, haben auf ihrer Seite einen Knopf „Anmelden“.',
  'me.status':
    '{status, select, registered {Angemeldet} waitlisted {Auf der Warteliste, Platz {place}} requested {Angefragt: wartet auf den Veranstalter} declined {Vom Veranstalter abgelehnt} other {Abgemeldet}}',
  'me.cancelled': 'Vom Veranstalter abgesagt: Deine Anmeldung bleibt, falls sie wieder stattfindet.',
  'me.calendarHeading': 'Dein privater Kalender',
  'me.calendarHelp':
    'Abonniere diese Adresse in deiner Kalender-App: Sie enthält die Veranstaltungen, für die du angemeldet bist (mit Erinnerungen), und die, auf die du wartest. Wer die Adresse hat, kann ihn lesen: Erneuere sie, falls sie bekannt wurde.',
  'me.rotate': 'Adresse erneuern',
  'me.signOut': 'Abmelden',
  'me.deleteHeading': 'Diese Identität löschen',
  'me.deleteHelp':
    'Zieht jede Anmeldung zurück und löscht deinen Passkey und deine Sitzungen hier. Das lässt sich nicht rückgängig machen.',
  'me.delete': 'Alles zurückziehen und löschen',
  'me.deleteConfirm': 'Jede Anmeldung zurückziehen und diese Identität endgültig löschen?',
  'rsvp.heading': 'Auf dieser Seite anmelden',
  'rsvp.help':
    'Der Veranstalter nimmt Anmeldungen hier an. Du brauchst einen Passkey: kein Konto, nichts Persönliches.',
  'rsvp.cancelledHelp':
    'Die Veranstaltung ist abgesagt: Anmeldungen bleiben, falls sie wieder stattfindet, und du kannst deine zurückziehen.',
  'rsvp.register': 'Anmelden',
  'rsvp.withdraw': 'Zurückziehen',
  'rsvp.mine': 'Deine Anmeldungen',
  'rsvp.resultTitle': 'Deine Anmeldung',
  'rsvp.result':
    '{status, select, registered {Du bist für „{title}“ angemeldet.} waitlisted {Du stehst auf der Warteliste für „{title}“, Platz {place}.} requested {Deine Anfrage für „{title}“ wartet auf den Veranstalter.} declined {Der Veranstalter hat deine Anfrage für „{title}“ abgelehnt.} other {Du hast dich von „{title}“ abgemeldet.}}',
  'rsvp.unchanged': 'Nichts geändert: Es war schon so.',
  'rsvp.failed': 'Nicht erledigt:',
  'rsvp.back': 'Zurück zur Veranstaltung',
};
