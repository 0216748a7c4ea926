import { connect } from 'node:net';
import { join } from 'node:path';
import type { ProblemCode } from '../catalogue/errors.js';
import type { Country } from '../places/countries.js';
import type { CapacityView, DecisionView, EventRsvpsView } from '../render/rsvp-json.js';
import type { CalendarSummary, OperatorLink } from '../use-cases/calendars.js';
import type { KeySummary } from '../use-cases/keys.js';
import type { ProposalDetail, ProposalFilter, ProposalView } from '../use-cases/proposals.js';

/**
 * The local control channel: while `serve` owns the embedded database, the `tech-events keys …`, `calendars …`,
 * `proposals …`, `rsvps …` and `sync` commands ask it to do their work instead. It is a Unix socket in the data directory that
 * only the service's user may open (mode 0600): whoever can open it could open the database files beside it anyway, so the socket's permissions are
 * its authentication. One request per connection, one JSON line each way.
 */
export const CONTROL_SOCKET = 'tech-events.sock';

export const controlSocketPath = (dataDir: string) => join(dataDir, CONTROL_SOCKET);

export type ControlRequest =
  | { command: 'keys.create'; name: string; country: Country }
  | { command: 'keys.list' }
  | { command: 'keys.revoke'; id: string }
  | { command: 'keys.rotate'; id: string; graceSeconds: number }
  | { command: 'sync'; feedsFile: string }
  | { command: 'calendars.link'; keyId: string; url: string }
  | { command: 'calendars.list'; keyId?: string }
  | { command: 'calendars.unlink'; id: string }
  | { command: 'proposals.list'; filter: ProposalFilter }
  | { command: 'proposals.show'; id: string }
  | { command: 'proposals.accept'; id: string }
  | { command: 'proposals.reject'; id: string; reason: string }
  | { command: 'proposals.remove'; id: string; reason?: string }
  | { command: 'rsvps.list'; id: string }
  | { command: 'rsvps.decide'; id: string; handle: string; decision: 'approve' | 'decline' }
  | { command: 'rsvps.capacity'; id: string; capacity: number | null };

/** A run's report as the CLI prints it (an import report without the ids of what it touched). */
export interface RunReport {
  created: number;
  updated: number;
  unchanged: number;
  cancelled: number;
  restored: number;
  elsewhere: number;
  skipped: { record: string; message: string }[];
}

/** One feed's sync as the CLI prints it. */
export interface SyncSummary {
  source: string;
  format: string;
  location: string;
  urls: number;
  missing: number;
  report?: RunReport;
  error?: string;
  /** A feed of calendars: those that failed or have gone (their events stay). */
  calendars?: { id: string; outcome: 'failed' | 'gone'; error: string }[];
}

export interface ControlResults {
  'keys.create': { summary: KeySummary; key: string };
  'keys.list': KeySummary[];
  'keys.revoke': { summary: KeySummary; changed: boolean };
  'keys.rotate': { summary: KeySummary; key: string };
  sync: SyncSummary[];
  'calendars.link': OperatorLink;
  'calendars.list': { keyId: string; calendars: CalendarSummary[] }[];
  'calendars.unlink': { id: string; retired: number };
  'proposals.list': ProposalView[];
  'proposals.show': ProposalDetail;
  'proposals.accept': ProposalDetail;
  'proposals.reject': ProposalDetail;
  'proposals.remove': ProposalDetail & { retired: number };
  'rsvps.list': EventRsvpsView;
  'rsvps.decide': DecisionView;
  'rsvps.capacity': CapacityView;
}

export type ControlReply<C extends ControlRequest['command']> =
  | { ok: true; pid: number; result: ControlResults[C] }
  | { ok: false; pid: number; error: { message: string; code?: ProblemCode } };

/** The longest request line the service reads: requests are a few fields. */
export const MAX_REQUEST_BYTES = 64 * 1024;

/** The socket is not there or nobody answers on it: no running service to ask. */
export class NoControlChannel extends Error {}

/** Sends one request to the service running on `dataDir` and waits for its reply (a sync may take minutes). */
export function askService<C extends ControlRequest['command']>(
  dataDir: string,
  request: Extract<ControlRequest, { command: C }>,
): Promise<ControlReply<C>> {
  return new Promise((resolve, reject) => {
    const socket = connect(controlSocketPath(dataDir));
    let data = '';
    let connected = false;
    socket.setEncoding('utf8');
    socket.on('connect', () => {
      connected = true;
      socket.write(`${JSON.stringify(request)}\n`);
    });
    socket.on('data', (chunk: string) => {
      data += chunk;
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      reject(connected ? error : new NoControlChannel(error.message));
    });
    socket.on('close', () => {
      const line = data.split('\n', 1)[0];
      if (!line) return reject(new NoControlChannel('the service closed the control channel without answering'));
      try {
        resolve(JSON.parse(line) as ControlReply<C>);
      } catch (error) {
        reject(error);
      }
    });
  });
}
