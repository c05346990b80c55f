import type { IncomingMessage, ServerResponse } from 'node:http';

// Like nginx's lingering close: enough to take in the rest of an upload refused at its limit.
const LINGER_BYTES = 32 * 1024 * 1024;
const LINGER_MS = 10_000;

/**
 * When the server answers before reading the whole body (a 401 to an upload, a 413
 * half-way), the rest is read and thrown away before the connection is reused or
 * closed. Closing at once makes the client's kernel see a reset while it still
 * writes, and clients such as Node's fetch then report `EPIPE` instead of the
 * answer. On a connection that stays open, the rest is drained once the answer has
 * gone; on one the request asked to close (`Connection: close`, HTTP/1.0), Node
 * would close it as the answer ends, so the answer is written but its end waits for
 * the drain. Past LINGER_BYTES or LINGER_MS the connection is closed all the same.
 */
export function lingerAfterAnswer(incoming: IncomingMessage, outgoing: ServerResponse): void {
  if (outgoing.shouldKeepAlive) {
    outgoing.once('finish', () => drain(incoming, () => {}));
    return;
  }
  const end = outgoing.end.bind(outgoing) as (...args: unknown[]) => ServerResponse;
  outgoing.end = ((...args: unknown[]) => {
    if (incoming.complete || incoming.destroyed) return end(...args);
    const callback = typeof args.at(-1) === 'function' ? (args.pop() as () => void) : undefined;
    if (args[0] !== undefined && args[0] !== null) outgoing.write(args[0] as Buffer, args[1] as BufferEncoding);
    drain(incoming, () => end(callback));
    return outgoing;
  }) as ServerResponse['end'];
}

function drain(incoming: IncomingMessage, drained: () => void): void {
  if (incoming.complete || incoming.destroyed) return drained();
  const socket = incoming.socket;
  let taken = 0;
  const giveUp = () => socket.destroy();
  const timer = setTimeout(giveUp, LINGER_MS);
  // Whatever was reading the body has stopped: the bytes go nowhere now. Its readers are
  // taken off, by 'data' (Readable.toWeb's, which also paused the stream) and by 'readable'
  // (an async iterator's: a web Request built over the stream, as Next.js builds its routes',
  // starts one when the route reads its body, and on Node 26 at once, read or not). While a
  // 'readable' listener is left, `resume()` does not make the stream flow: the rest is never
  // read, and an answer waiting for its end never ends.
  incoming.removeAllListeners('data');
  incoming.removeAllListeners('readable');
  incoming.on('data', (chunk: Buffer) => {
    taken += chunk.length;
    if (taken > LINGER_BYTES) {
      clearTimeout(timer);
      giveUp();
    }
  });
  incoming.once('end', () => {
    clearTimeout(timer);
    drained();
  });
  incoming.once('close', () => clearTimeout(timer));
  incoming.resume();
}
