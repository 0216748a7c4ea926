import type { Socket } from 'node:net';

/** How long a lingering connection may go without a byte from its client, and how long it may linger at most. */
const LINGER_IDLE_MS = 2_000;
const LINGER_MAX_MS = 30_000;

/** Marks a socket already lingering: the mark lives and dies with the socket, not in a set of this module. */
const LINGERING = Symbol('lingering');
type Marked = Socket & { [LINGERING]?: true };

/**
 * Closes a connection answered before its request's body was read (a body over the limit) as nginx's lingering close
 * does. Node would close the socket as soon as the answer is written; a client still sending its body then meets a
 * reset (EPIPE, ECONNRESET), which may discard the answer before it is read. Instead the answer is followed by the
 * end of what the server sends, and what the client still sends is read and dropped until it stops sending, goes
 * quiet or has lingered long enough.
 */
export function lingerOnClose(socket: Marked): void {
  if (socket.destroyed || socket[LINGERING]) return;
  socket[LINGERING] = true;
  socket.destroySoon = () => {
    if (socket.writable) socket.end();
    const began = Date.now();
    let read = socket.bytesRead;
    const watch = setInterval(() => {
      if (socket.bytesRead === read || Date.now() - began > LINGER_MAX_MS) socket.destroy();
      read = socket.bytesRead;
    }, LINGER_IDLE_MS).unref();
    socket.once('end', () => socket.destroy());
    socket.once('close', () => clearInterval(watch));
    // The HTTP parser reads (and drops) the rest of the body; a socket it no longer reads is read here.
    socket.resume();
  };
}
