import type { Duplex } from 'node:stream';

/** What of a pg client this needs: the socket its answers arrive on (a TLS one after SSL). */
interface WithSocket {
  connection?: { stream?: Duplex };
}

const PACED = Symbol('paced reads');

/**
 * Makes a pg client's socket hand over one chunk (at most 64 KB) per turn of the event loop.
 * pg parses an answer as fast as its socket gives it, and libuv gives up to 32 reads in one turn:
 * a 50,000-task board's rows (12 MB) arrived in turns of 80–100 ms of parsing on a slow day of
 * our machines, past the 100 ms a request may hold the loop (issue 23). After each chunk the
 * socket pauses until the next turn, so other requests' I/O and timers run between two chunks.
 * A small answer is one chunk: it costs a pause and a resume, nothing waits for them.
 */
export function readInTurns(client: object): void {
  const socket = (client as WithSocket).connection?.stream as (Duplex & { [PACED]?: true }) | undefined;
  if (!socket || socket[PACED]) return;
  socket[PACED] = true;
  // Listeners run in order: pg's parser (attached at connect) has read this chunk already.
  socket.on('data', () => {
    socket.pause();
    setImmediate(() => socket.resume());
  });
}
