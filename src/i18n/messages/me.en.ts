/**
 * English messages of the attendees' pages (`/me`, the Register and Withdraw forms of a host-run event and their
 * answer), kept apart from the rest of the catalogue; `en.ts` takes them in, the other languages as theirs.
 */
export const enMe = {
  'me.title': 'Your RSVPs',
  'me.description':
    'Register for events hosts run on this site with a passkey: no account, no e-mail, no name. Your RSVPs and your private calendar.',
  'me.intro':
    'Hosts who run their events on this site take registrations here. You sign in with a passkey your device makes: nothing personal is asked or kept (no e-mail, no name), and hosts see only a random handle.',
  'me.create': 'Create a passkey',
  'me.createHelp': 'New here: your device makes a passkey for this site, which names you by a random handle.',
  'me.signIn': 'Sign in with a passkey',
  'me.signInHelp': 'Been here before: your device offers the passkey you made.',
  'me.noScript': 'Passkeys need JavaScript in your browser: this page loads one small script of this site.',
  'me.working': 'Waiting for your device…',
  'me.failed': 'That did not work:',
  'me.signedInAs': 'Signed in as {handle}',
  'me.continue': 'Continue where you were',
  'me.rsvpsHeading': 'Your RSVPs',
  'me.none': 'No RSVPs yet. Events their hosts run on this site have a Register button on their page.',
  'me.status':
    '{status, select, registered {Registered} waitlisted {On the waitlist, place {place}} requested {Requested: waiting for the host} declined {Declined by the host} other {Withdrawn}}',
  'me.cancelled': 'Cancelled by the host: your RSVP is kept in case it is restored.',
  'me.calendarHeading': 'Your private calendar',
  'me.calendarHelp':
    'Subscribe to this address in your calendar app: it holds the events you are registered for (with reminders) and those you wait for. Whoever has the address can read it: renew it if it leaked.',
  'me.rotate': 'Renew the address',
  'me.signOut': 'Sign out',
  'me.deleteHeading': 'Delete this identity',
  'me.deleteHelp': 'Withdraws every RSVP and deletes your passkey and sessions here. It cannot be undone.',
  'me.delete': 'Withdraw everything and delete',
  'me.deleteConfirm': 'Withdraw every RSVP and delete this identity for good?',
  'rsvp.heading': 'Register on this site',
  'rsvp.help': 'The host takes registrations here. You need a passkey: no account, nothing personal.',
  'rsvp.cancelledHelp':
    'The event is cancelled: registrations are kept in case it is restored, and you can withdraw yours.',
  'rsvp.register': 'Register',
  'rsvp.withdraw': 'Withdraw',
  'rsvp.mine': 'Your RSVPs',
  'rsvp.resultTitle': 'Your RSVP',
  'rsvp.result':
    '{status, select, registered {You are registered for “{title}”.} waitlisted {You are on the waitlist for “{title}”, place {place}.} requested {Your request for “{title}” waits for the host.} declined {The host declined your request for “{title}”.} other {You have withdrawn from “{title}”.}}',
  'rsvp.unchanged': 'Nothing changed: it already was so.',
  'rsvp.failed': 'Not done:',
  'rsvp.back': 'Back to the event',
};
