import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';

const gzipAsync = promisify(gzip);
// Below this, gzip's header and the time spent outweigh the bytes saved (Next.js uses the same threshold).
const COMPRESS_MIN_BYTES = 1024;

/**
 * A Node request as the web Request a route handler takes, at `url` (the path as
 * the edge normalized it). No handler stops its work when a client leaves, so no
 * abort signal is wired to the socket: on Node 20 creating one is a measurable part
 * of a short request.
 *
 * X-Forwarded-For leaves here holding one address, the client's as the edge
 * resolved it (client-address.ts); X-Real-IP, which any client can write, is
 * dropped so that nothing downstream takes it instead.
 */
export function toWebRequest(incoming: IncomingMessage, url: URL, client: string | undefined): Request {
  const headers = new Headers();
  const raw = incoming.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
  headers.delete('x-real-ip');
  if (client) headers.set('x-forwarded-for', client);
  else headers.delete('x-forwarded-for');

  const hasBody = incoming.method !== 'GET' && incoming.method !== 'HEAD';
  const request = new Request(url, {
    method: incoming.method,
    headers,
    body: hasBody ? (Readable.toWeb(incoming) as ReadableStream<Uint8Array>) : undefined,
    duplex: 'half',
  } as RequestInit);
  urls.set(request, url);
  return request;
}

// The URL each Request above was made from: its handler reads it rather than parsing the Request's again.
const urls = new WeakMap<Request, URL>();

/** A request's URL, parsed once per request. */
export function urlOf(request: Request): URL {
  return urls.get(request) ?? new URL(request.url);
}

/** The request's URL with its path as given; the handlers read only the path and query. */
export function requestUrl(incoming: IncomingMessage, path = incoming.url ?? '/'): URL {
  try {
    return new URL(path, `http://${incoming.headers.host ?? 'localhost'}`);
  } catch {
    // A Host header that is no host.
    return new URL(path, 'http://localhost');
  }
}

// The text of answers made by jsonResponse: sent as it is, not read back out of the Response's stream.
const texts = new WeakMap<Response, string>();

/** A Response of JSON text the server made itself, whose text the edge sends without reading the body's stream. */
export function jsonResponse(text: string, init: { status: number; headers: [string, string][] }): Response {
  const response = new Response(text, init);
  texts.set(response, text);
  return response;
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

  if (!response.body) {
    outgoing.writeHead(response.status, headers).end();
    return;
  }
  if (!response.headers.get('content-type')?.includes('json') || response.headers.has('content-encoding')) {
    outgoing.writeHead(response.status, headers);
    if (incoming.method === 'HEAD') {
      await response.body.cancel();
      outgoing.end();
      return;
    }
    await pipeline(Readable.fromWeb(response.body as import('node:stream/web').ReadableStream), outgoing);
    return;
  }

  const text = texts.get(response);
  let body = text === undefined ? await bytesOf(response.body) : Buffer.from(text);
  if (body.length >= COMPRESS_MIN_BYTES) {
    headers.vary = headers.vary ? `${headers.vary}, Accept-Encoding` : 'Accept-Encoding';
    if (acceptsGzip(incoming.headers['accept-encoding'])) {
      body = await gzipAsync(body);
      headers['content-encoding'] = 'gzip';
    }
  }
  headers['content-length'] = String(body.length);
  // HEAD: the headers GET would send, its length included, without the body.
  outgoing.writeHead(response.status, headers).end(incoming.method === 'HEAD' ? undefined : body);
}

/** A body's bytes; one that comes as a single chunk (the usual JSON answer) is not copied again. */
async function bytesOf(body: ReadableStream<Uint8Array>): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  const reader = body.getReader();
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) chunks.push(chunk.value);
  const [only] = chunks;
  return chunks.length === 1 ? Buffer.from(only!.buffer, only!.byteOffset, only!.byteLength) : Buffer.concat(chunks);
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
