import net from 'node:net';
import { PATIENCE_MS } from './patience';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Sends `head` and `body` as written, on a connection of its own (from
 * `localAddress` if given), and reads the first answer: for requests a
 * well-behaved client library would refuse to send.
 */
export async function rawRequest(baseUrl: string, head: string, body: Buffer | string = '', localAddress?: string): Promise<RawResponse> {
  const [response] = await rawExchange(baseUrl, [head, body], 1, { localAddress, headRequest: head.startsWith('HEAD ') });
  return response!;
}

/** Writes `parts` in order on one connection and reads `answers` answers from it. */
export function rawExchange(
  baseUrl: string,
  parts: (Buffer | string)[],
  answers: number,
  options: { localAddress?: string; headRequest?: boolean } = {},
): Promise<RawResponse[]> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: hostname, port: Number(port), localAddress: options.localAddress });
    let received = Buffer.alloc(0);
    const responses: RawResponse[] = [];
    const fail = (what: string) =>
      reject(new Error(`${responses.length} of ${answers} answers, then ${what}: ${received.toString('latin1').slice(0, 200)}`));
    const timer = setTimeout(() => {
      socket.destroy();
      fail('nothing');
    }, PATIENCE_MS);
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      for (let parsed = parse(received, options.headRequest); parsed; parsed = parse(received, options.headRequest)) {
        responses.push(parsed.response);
        received = received.subarray(parsed.length);
      }
      if (responses.length >= answers) {
        clearTimeout(timer);
        socket.destroy();
        resolve(responses);
      }
    });
    socket.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    // A promise settles once: after the last answer, this does nothing.
    socket.on('close', () => {
      clearTimeout(timer);
      fail('the connection closed');
    });
    for (const part of parts) if (part.length > 0) socket.write(part);
  });
}

function parse(received: Buffer, headRequest = false): { response: RawResponse; length: number } | null {
  const end = received.indexOf('\r\n\r\n');
  if (end === -1) return null;
  const [statusLine = '', ...lines] = received.subarray(0, end).toString('latin1').split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const status = Number(statusLine.split(' ')[1]);
  const rest = received.subarray(end + 4);
  if (!headRequest && headers['transfer-encoding']?.toLowerCase() === 'chunked') {
    const chunked = unchunk(rest);
    return chunked && { response: { status, headers, body: chunked.body.toString('utf8') }, length: end + 4 + chunked.length };
  }
  // An answer to HEAD announces the length GET would have, and has no body.
  const length = headRequest || headers['content-length'] === undefined ? 0 : Number(headers['content-length']);
  if (rest.length < length) return null;
  return { response: { status, headers, body: rest.subarray(0, length).toString('utf8') }, length: end + 4 + length };
}

/** A chunked body's bytes and the length it takes on the wire, up to the end of its trailer; null until all of it has come. */
function unchunk(rest: Buffer): { body: Buffer; length: number } | null {
  const chunks: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = rest.indexOf('\r\n', at);
    if (lineEnd === -1) return null;
    const size = parseInt(rest.subarray(at, lineEnd).toString('latin1'), 16);
    at = lineEnd + 2;
    if (size === 0) {
      const trailerEnd = rest.indexOf('\r\n\r\n', lineEnd);
      return trailerEnd === -1 ? null : { body: Buffer.concat(chunks), length: trailerEnd + 4 };
    }
    if (rest.length < at + size + 2) return null;
    chunks.push(rest.subarray(at, at + size));
    at += size + 2;
  }
}

/**
 * A client that is still sending its body when the answer comes, and reads only
 * afterwards: it writes `head` and `sent` bytes of the body in chunks, pausing
 * between them, without reading; then it reads the first answer. A server that
 * closes the connection on unread bytes makes the client's kernel drop that answer.
 */
export function slowReaderRequest(baseUrl: string, head: string, sent: number, localAddress?: string): Promise<RawResponse> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: hostname, port: Number(port), localAddress });
    socket.pause();
    socket.on('error', reject);
    socket.once('connect', async () => {
      socket.write(head);
      const chunk = Buffer.alloc(256 * 1024, 'x');
      for (let written = 0; written < sent; written += chunk.length) {
        socket.write(chunk);
        await new Promise((wait) => setTimeout(wait, 20));
      }
      await new Promise((wait) => setTimeout(wait, 500));
      let received = Buffer.alloc(0);
      socket.on('data', (data: Buffer) => {
        received = Buffer.concat([received, data]);
        const parsed = parse(received);
        if (parsed) {
          socket.destroy();
          resolve(parsed.response);
        }
      });
      socket.resume();
    });
  });
}
