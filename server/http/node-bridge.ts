import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';

const gzipAsync = promisify(gzip);
// Below this, gzip's header and the time spent outweigh the bytes saved (Next.js uses the same threshold).
const COMPRESS_MIN_BYTES = 1024;

/**
 * A Node request as the web Request a route handler takes. No handler stops its
 * work when a client leaves, so no abort signal is wired to the socket: on Node 20
 * creating one is a measurable part of a short request.
 *
 * X-Forwarded-For leaves here holding one address, the client's as far as it can
 * be known (see forwardedClient); X-Real-IP, which any client can write, is dropped
 * so that nothing downstream takes it instead.
 */
export function toWebRequest(incoming: IncomingMessage, trustedProxies: number): Request {
  const headers = new Headers();
  const raw = incoming.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
  const client = forwardedClient(headers.get('x-forwarded-for'), incoming.socket.remoteAddress, trustedProxies);
  headers.delete('x-real-ip');
  if (client) headers.set('x-forwarded-for', client);
  else headers.delete('x-forwarded-for');

  const hasBody = incoming.method !== 'GET' && incoming.method !== 'HEAD';
  return new Request(requestUrl(incoming), {
    method: incoming.method,
    headers,
    body: hasBody ? (Readable.toWeb(incoming) as ReadableStream<Uint8Array>) : undefined,
    duplex: 'half',
  } as RequestInit);
}

/**
 * The client's address behind `trustedProxies` reverse proxies. Each proxy appends
 * the address it was connected from to X-Forwarded-For, and the socket's peer is
 * the last of them; counting that many hops back from the peer reaches the address
 * the outermost trusted proxy saw. Anything further left was written by the client
 * and would let it pick a fresh address for every request. Undefined when the
 * socket is already gone.
 */
function forwardedClient(forwardedFor: string | null, peer: string | undefined, trustedProxies: number): string | undefined {
  if (!peer) return undefined;
  const chain = forwardedFor ? forwardedFor.split(',').map((entry) => entry.trim()).filter(Boolean) : [];
  chain.push(peer);
  return chain[Math.max(0, chain.length - 1 - trustedProxies)];
}

function requestUrl(incoming: IncomingMessage): URL {
  const path = incoming.url ?? '/';
  try {
    return new URL(path, `http://${incoming.headers.host ?? 'localhost'}`);
  } catch {
    // A Host header that is no host: the handlers read only the path and query.
    return new URL(path, 'http://localhost');
  }
}

/**
 * Sends a web Response on a Node response. JSON answers are bounded in size: they
 * are read whole, sent with their length, and gzipped when the client accepts it
 * and they are big enough to gain, as `next start` does. Anything else streams.
 */
export async function sendWebResponse(response: Response, incoming: IncomingMessage, outgoing: ServerResponse): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  // Several cookies cannot share one header line: they go as a list.
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers['set-cookie'] = cookies;

  if (!response.body || incoming.method === 'HEAD') {
    outgoing.writeHead(response.status, headers).end();
    return;
  }
  if (!response.headers.get('content-type')?.includes('json') || response.headers.has('content-encoding')) {
    outgoing.writeHead(response.status, headers);
    await pipeline(Readable.fromWeb(response.body as import('node:stream/web').ReadableStream), outgoing);
    return;
  }

  let body = Buffer.from(await response.arrayBuffer());
  if (body.length >= COMPRESS_MIN_BYTES) {
    headers.vary = headers.vary ? `${headers.vary}, Accept-Encoding` : 'Accept-Encoding';
    if (acceptsGzip(incoming.headers['accept-encoding'])) {
      body = await gzipAsync(body);
      headers['content-encoding'] = 'gzip';
    }
  }
  headers['content-length'] = String(body.length);
  outgoing.writeHead(response.status, headers).end(body);
}

/** Whether Accept-Encoding allows gzip: named, or covered by `*`, with a weight above 0. */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  const weights = new Map<string, number>();
  for (const part of header.toLowerCase().split(',')) {
    const [coding = '', ...params] = part.split(';').map((piece) => piece.trim());
    const q = params.find((param) => param.startsWith('q='));
    weights.set(coding, q ? Number(q.slice(2)) : 1);
  }
  const weight = weights.get('gzip') ?? weights.get('x-gzip') ?? weights.get('*') ?? 0;
  return weight > 0;
}
