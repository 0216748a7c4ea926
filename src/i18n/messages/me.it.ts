import type { enMe } from './me.en.js';

/** Italian messages of `/me` and the RSVP forms (see me.en.ts). */
export const itMe: Record<keyof typeof enMe, string> = {
  'me.title': 'Le tue iscrizioni',
  'me.description':
    'Iscriviti con una passkey agli eventi che gli organizzatori gestiscono su questo sito: nessun account, nessuna e-mail, nessun nome. Le tue iscrizioni e il tuo calendario privato.',
  'me.intro':
    'Gli organizzatori che gestiscono i loro eventi su questo sito vi raccolgono le iscrizioni. Accedi con una passkey creata dal tuo dispositivo: nulla di personale viene chiesto o conservato (nessuna e-mail, nessun nome) e gli organizzatori vedono solo un nome casuale.',
  'me.create': 'Crea una passkey',
  'me.createHelp': 'Nuovo qui: il tuo dispositivo crea una passkey per questo sito, che ti chiama con un nome casuale.',
  'me.signIn': 'Accedi con una passkey',
  'me.signInHelp': 'Già stato qui: il tuo dispositivo offre la passkey che hai creato.',
  'me.noScript': 'Le passkey richiedono JavaScript nel browser: questa pagina carica un piccolo script di questo sito.',
  'me.working': 'In attesa del tuo dispositivo…',
  'me.failed': 'Non ha funzionato:',
  'me.signedInAs': 'Accesso come {handle}',
  'me.continue': 'Continua da dove eri',
  'me.rsvpsHeading': 'Le tue iscrizioni',
  'me.none':
    'Ancora nessuna iscrizione. Gli eventi che gli organizzatori gestiscono su questo sito hanno un pulsante «Iscriviti» nella loro pagina.',
  'me.status':
    '{status, select, registered {Iscritto} waitlisted {In lista d’attesa, posto {place}} requested {Richiesto: in attesa dell’organizzatore} declined {Rifiutato dall’organizzatore} other {Ritirato}}',
  'me.cancelled': 'Annullato dall’organizzatore: la tua iscrizione resta nel caso venga ripristinato.',
  'me.calendarHeading': 'Il tuo calendario privato',
  'me.calendarHelp':
    'Abbonati a questo indirizzo nella tua app di calendario: contiene gli eventi a cui sei iscritto (con promemoria) e quelli che attendi. Chi ha l’indirizzo può leggerlo: rinnovalo se è trapelato.',
  'me.rotate': 'Rinnova l’indirizzo',
  'me.signOut': 'Esci',
  'me.deleteHeading': 'Elimina questa identità',
  'me.deleteHelp': 'Ritira ogni iscrizione ed elimina qui la tua passkey e le tue sessioni. Non si può annullare.',
  'me.delete': 'Ritira tutto ed elimina',
  'me.deleteConfirm': 'Ritirare ogni iscrizione ed eliminare per sempre questa identità?',
  'rsvp.heading': 'Iscriviti su questo sito',
  'rsvp.help': 'L’organizzatore raccoglie le iscrizioni qui. Ti serve una passkey: nessun account, nulla di personale.',
  'rsvp.cancelledHelp':
    'L’evento è annullato: le iscrizioni restano nel caso venga ripristinato, e puoi ritirare la tua.',
  'rsvp.register': 'Iscriviti',
  'rsvp.withdraw': 'Ritirati',
  'rsvp.mine': 'Le tue iscrizioni',
  'rsvp.resultTitle': 'La tua iscrizione',
  'rsvp.result':
    '{status, select, registered {Sei iscritto a «{title}».} waitlisted {Sei in lista d’attesa per «{title}», posto {place}.} requested {La tua richiesta per «{title}» attende l’organizzatore.} declined {L’organizzatore ha rifiutato la tua richiesta per «{title}».} other {Ti sei ritirato da «{title}».}}',
  'rsvp.unchanged': 'Nulla è cambiato: era già così.',
  'rsvp.failed': 'Non fatto:',
  'rsvp.back': 'Torna all’evento',
};
