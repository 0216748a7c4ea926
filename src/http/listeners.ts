import type { Server } from 'node:http';
import { createServer, type Server as NetServer } from 'node:net';

/**
 * Listening sockets on the server's port beside its own, each handing the connections it accepts to the one HTTP
 * server (SO_REUSEPORT: the kernel spreads new connections over them).
 *
 * libuv accepts one connection per listening socket each pass of the event loop. When a crowd connects at once, one
 * socket's queue drains at the loop's pace, a hundred or so connections a second while the loop is busy, and a new
 * client's connection waits behind all of the crowd's: with 2,000 connecting at once (`npm run soak`), sixteen
 * sockets still left a new client waiting 1–4 s at p99, sixty-four 0.5–0.8 s (docs/performance.md, Overload). Only
 * on Linux (elsewhere Node refuses the option): everywhere else the server keeps its one socket.
 */
export const ACCEPTING_SOCKETS = process.platform === 'linux' ? 64 : 1;

/** Whether the server should listen with SO_REUSEPORT, so that the sockets of `openMoreListeners` can join it. */
export const sharesItsPort = ACCEPTING_SOCKETS > 1;

/**
 * Fails as a busy port would without SO_REUSEPORT: another process listening on it (a second instance started by
 * mistake) would otherwise share its connections with this one instead of refusing to start.
 */
export async function ensurePortFree(port: number, host: string): Promise<void> {
  if (!sharesItsPort || port === 0) return;
  const probe = createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', reject);
    probe.listen({ port, host }, () => resolve());
  });
  await new Promise<void>((resolve) => probe.close(() => resolve()));
}

/**
 * Opens the other accepting sockets on `server`'s port and address. `maxConnections` holds for all of them together:
 * past it a new connection is closed as it arrives, whichever socket took it. Returns how to stop them accepting.
 */
export async function openMoreListeners(
  server: Server,
  options: { backlog: number; maxConnections: number },
): Promise<() => Promise<void>> {
  const address = server.address();
  if (!sharesItsPort || address === null || typeof address === 'string') return async () => {};
  const max = options.maxConnections;
  // Every connection the server holds (its own socket's and those handed over), and those handed over. The server
  // counts only its own against its maxConnections, so that limit is what the others leave.
  let open = 0;
  let handedOver = 0;
  server.on('connection', (socket) => {
    open++;
    socket.once('close', () => open--);
  });
  const leaveTheRest = () => {
    server.maxConnections = Math.max(0, max - handedOver);
  };
  leaveTheRest();
  const listeners: NetServer[] = [];
  for (let i = 1; i < ACCEPTING_SOCKETS; i++) {
    const listener = createServer((socket) => {
      if (open >= max) {
        socket.destroy();
        return;
      }
      handedOver++;
      leaveTheRest();
      socket.once('close', () => {
        handedOver--;
        leaveTheRest();
      });
      server.emit('connection', socket);
    });
    await new Promise<void>((resolve, reject) => {
      listener.once('error', reject);
      listener.listen({ port: address.port, host: address.address, backlog: options.backlog, reusePort: true }, () =>
        resolve(),
      );
    });
    listeners.push(listener);
  }
  // Stops accepting. A socket's close callback would wait for every connection it ever handed over to end; those
  // belong to the HTTP server, which ends them as it closes.
  return async () => {
    for (const listener of listeners) listener.close();
  };
}
