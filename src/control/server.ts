import { chmodSync, rmSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { ServiceError } from '../catalogue/errors.js';
import type { ServingContext } from '../context.js';
import { feedLocation, type SyncResult } from '../use-cases/sync-feeds.js';
import { syncFeedsFile } from '../use-cases/sync-now.js';
import { runCommand } from './commands.js';
import {
  type ControlReply,
  type ControlRequest,
  type ControlResults,
  controlSocketPath,
  MAX_REQUEST_BYTES,
  type SyncSummary,
} from './protocol.js';

export interface ControlChannel {
  path: string;
  close(): Promise<void>;
}

/** What a sync did, as the CLI prints it. */
export function syncSummary({ feed, report, error, urls, missing, calendars }: SyncResult): SyncSummary {
  const summary: SyncSummary = {
    source: feed.source,
    format: feed.format,
    location: feedLocation(feed),
    urls,
    missing,
  };
  if (report) {
    const { created, updated, unchanged, cancelled, restored, elsewhere, skipped } = report;
    summary.report = { created, updated, unchanged, cancelled, restored, elsewhere, skipped };
  }
  if (error !== undefined) summary.error = error;
  const failing = calendars?.flatMap((c) =>
    c.outcome === 'failed' || c.outcome === 'gone'
      ? [{ id: c.target.part, outcome: c.outcome, error: c.error ?? '' }]
      : [],
  );
  if (calendars) summary.calendars = failing ?? [];
  return summary;
}

/** Each command calls its use case, as the CLI would on a database of its own; a sync reads the feeds file. */
async function run(ctx: ServingContext, request: ControlRequest): Promise<ControlResults[ControlRequest['command']]> {
  if (request.command === 'sync') return (await syncFeedsFile(ctx, request.feedsFile, { via: 'cli' })).map(syncSummary);
  return runCommand(ctx, request);
}

/**
 * Opens the local control channel of a service on the embedded engine (see protocol.ts): a Unix socket in the data
 * directory, readable and writable by the service's user only. The service holds the data directory's lock, so a
 * socket file already there is a stale one of a process that died, and is replaced.
 */
export async function openControlChannel(ctx: ServingContext, dataDir: string): Promise<ControlChannel> {
  const path = controlSocketPath(dataDir);
  rmSync(path, { force: true });
  const open = new Set<Socket>();
  // Half-open: a client may end its side once it has sent its request, and still read the answer, however long the
  // work takes (a sync downloads).
  const server = createServer({ allowHalfOpen: true }, (socket) => {
    open.add(socket);
    socket.on('close', () => open.delete(socket));
    serve(ctx, socket);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => {
      server.off('error', reject);
      resolve();
    });
  });
  chmodSync(path, 0o600);
  return {
    path,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        // Closing the server removes the socket file.
        server.close(() => resolve());
      }),
  };
}

function serve(ctx: ServingContext, socket: Socket): void {
  let data = '';
  let answered = false;
  socket.setEncoding('utf8');
  socket.on('error', () => {}); // a client gone away: nothing to answer
  const reply = (body: ControlReply<ControlRequest['command']>) => {
    answered = true;
    socket.end(`${JSON.stringify(body)}\n`);
  };
  socket.on('data', (chunk: string) => {
    if (answered) return;
    data += chunk;
    const end = data.indexOf('\n');
    if (end < 0) {
      if (data.length > MAX_REQUEST_BYTES)
        reply({ ok: false, pid: process.pid, error: { message: 'request too large' } });
      return;
    }
    let request: ControlRequest;
    try {
      request = JSON.parse(data.slice(0, end)) as ControlRequest;
    } catch {
      reply({ ok: false, pid: process.pid, error: { message: 'the request is not JSON' } });
      return;
    }
    answered = true;
    ctx.logger.info({ command: request.command, via: 'cli' }, `control: ${request.command}`);
    run(ctx, request).then(
      (result) => reply({ ok: true, pid: process.pid, result }),
      (error: unknown) => {
        if (!(error instanceof ServiceError)) ctx.logger.error({ err: error }, `control: ${request.command} failed`);
        const message = error instanceof Error ? error.message : String(error);
        reply({
          ok: false,
          pid: process.pid,
          error: error instanceof ServiceError ? { message, code: error.code } : { message },
        });
      },
    );
  });
}
