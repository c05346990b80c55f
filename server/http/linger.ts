import type { IncomingMessage } from 'node:http';

// Like nginx's lingering close: enough to take in the rest of an upload refused at its limit.
const LINGER_BYTES = 32 * 1024 * 1024;
const LINGER_MS = 10_000;

/**
 * When the server has answered before reading the whole body (a 401 to an upload,
 * a 413 half-way), the rest is read and thrown away before the connection is
 * reused or closed. Closing at once makes the client's kernel see a reset while it
 * still writes, and clients such as Node's fetch then report `EPIPE` instead of the
 * answer. Past LINGER_BYTES or LINGER_MS the connection is closed all the same.
 */
export function lingerAfterAnswer(incoming: IncomingMessage): void {
  if (incoming.complete || incoming.destroyed) return;
  const socket = incoming.socket;
  let drained = 0;
  const giveUp = () => socket.destroy();
  const timer = setTimeout(giveUp, LINGER_MS);
  // Whatever was reading the body (a web stream over it, say) has stopped: the bytes go nowhere now.
  incoming.removeAllListeners('data');
  incoming.on('data', (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > LINGER_BYTES) {
      clearTimeout(timer);
      giveUp();
    }
  });
  incoming.once('end', () => clearTimeout(timer));
  incoming.once('close', () => clearTimeout(timer));
  incoming.resume();
}
