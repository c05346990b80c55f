import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { logEvent } from '../log';
import { resolveClientAddress } from './client-address';
import { INTERNAL_ERROR, type PublicError } from '../api/errors';
import { HEADERS_TOO_LARGE, MAX_TARGET_LENGTH, TARGET_TOO_LONG, UPLOAD_DEADLINE_S } from '../api/messages';
import { lingerAfterAnswer } from './linger';
import { requestUrl, sendWebResponse, toWebRequest } from './node-bridge';
import { handleMcpRequest, MCP_PATH } from './mcp';
import { isDecodablePath, isPublicApiPath, normalizePath } from './paths';
import { handlePublicRequest } from './public-api';
import { beforeTheKeyHeaders } from './respond';
import { isUploadPath, serveUpload } from './direct-upload';

// Methods no route of the app answers, refused before any handler sees them.
const REFUSED_METHODS = new Set(['TRACE', 'TRACK', 'CONNECT']);
const EDGE_HEADERS = { 'Content-Type': 'application/json', 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-store' };

export interface EdgeOptions {
  /** Reverse proxies in front of the server whose X-Forwarded-For entries are believed. */
  trustedProxies: number;
  /** Everything that is not the public API: Next.js, or the tests' route table. */
  handleOther(incoming: IncomingMessage, outgoing: ServerResponse): void | Promise<void>;
}

/**
 * The node:http request listener of `npm start`: every request, whatever its path,
 * first passes here. Odd targets and methods answer in the API's error shape; the
 * client address is resolved once, by one rule, and written where every handler
 * reads it (X-Forwarded-For); a path under /v1/public, however it is spelled,
 * goes to the public API's handler, /v1/mcp to the MCP server's, a local upload URL
 * to its own (direct-upload.ts), the rest to `handleOther`. A body left unread by an
 * early answer is drained before the connection is closed.
 */
export function createEdgeListener(options: EdgeOptions) {
  return (incoming: IncomingMessage, outgoing: ServerResponse): void => {
    lingerAfterAnswer(incoming, outgoing);
    const target = incoming.url ?? '';
    const method = incoming.method ?? 'GET';
    // `OPTIONS *` and absolute-form targets: this server answers paths only.
    if (!target.startsWith('/')) return answer(outgoing, 400, 'Request target must be a path starting with /');
    if (target.length > MAX_TARGET_LENGTH) return answer(outgoing, 414, TARGET_TOO_LONG);
    if (REFUSED_METHODS.has(method)) return answer(outgoing, 405, `Method ${method} is not allowed`);

    const client = resolveClientAddress(incoming.headers['x-forwarded-for'], incoming.socket.remoteAddress, options.trustedProxies);
    delete incoming.headers['x-real-ip'];
    if (client) incoming.headers['x-forwarded-for'] = client;
    else delete incoming.headers['x-forwarded-for'];

    const queryAt = target.indexOf('?');
    const path = normalizePath(queryAt === -1 ? target : target.slice(0, queryAt));
    // A local upload streams to disk from here, as the API's multipart upload does, not through Next.js.
    const handle =
      path === MCP_PATH ? handleMcpRequest : isPublicApiPath(path) ? handlePublicRequest : isUploadPath(path) ? serveUpload : undefined;
    if (!handle) {
      if (!isDecodablePath(path)) return answer(outgoing, 400, 'Request path is not percent-encoded UTF-8');
      void Promise.resolve(options.handleOther(incoming, outgoing)).catch((error: unknown) => failed(outgoing, error));
      return;
    }
    const url = requestUrl(incoming, queryAt === -1 ? path : path + target.slice(queryAt));
    let request: Request;
    try {
      request = toWebRequest(incoming, url, client);
    } catch {
      // Node's parser let through a header the Fetch API refuses.
      return answer(outgoing, 400, 'Malformed request headers');
    }
    handle(request)
      .then((response) => sendWebResponse(response, incoming, outgoing))
      .catch((error: unknown) => failed(outgoing, error));
  };
}

function answer(outgoing: ServerResponse, statusCode: number, message: string, requestId = randomUUID()): void {
  const body = JSON.stringify({ statusCode, message } satisfies PublicError);
  outgoing
    .writeHead(statusCode, {
      ...EDGE_HEADERS,
      ...beforeTheKeyHeaders(),
      'X-Request-Id': requestId,
      'Content-Length': Buffer.byteLength(body),
    })
    .end(body);
}

function failed(outgoing: ServerResponse, error: unknown): void {
  const requestId = randomUUID();
  logEvent('error', 'http.edge_failed', { requestId, error });
  if (!outgoing.headersSent) {
    answer(outgoing, INTERNAL_ERROR.statusCode, INTERNAL_ERROR.message, requestId);
    return;
  }
  outgoing.destroy();
}

// A request's head must arrive within this (Node's default is 60 s): a client that sends it slowly holds a socket.
const HEADERS_TIMEOUT_MS = 20_000;
// Node's own bound on a whole request, a backstop past the routes' own body deadlines (exchange.ts).
const REQUEST_TIMEOUT_MS = (UPLOAD_DEADLINE_S + 10) * 1000;

/**
 * The server's own bounds on time: a head within 20 s, a whole request within the
 * longest body deadline and a little more, past which Node answers 408 (below).
 * And requests Node's parser refuses before any listener sees them (a malformed
 * head, one over the size limit, an unknown method) answer in the API's error shape.
 */
export function answerClientErrors(server: Server): void {
  server.headersTimeout = HEADERS_TIMEOUT_MS;
  server.requestTimeout = REQUEST_TIMEOUT_MS;
  server.on('clientError', (error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Socket) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const statusCode = clientErrorStatus(error);
    const message =
      statusCode === 414
        ? TARGET_TOO_LONG
        : statusCode === 431
          ? HEADERS_TOO_LARGE
          : statusCode === 408
            ? 'Request timed out'
            : 'Malformed request';
    const body = JSON.stringify({ statusCode, message } satisfies PublicError);
    const headers = Object.entries({
      ...EDGE_HEADERS,
      ...beforeTheKeyHeaders(),
      'X-Request-Id': randomUUID(),
      'Content-Length': Buffer.byteLength(body),
      Connection: 'close',
    })
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    socket.end(`HTTP/1.1 ${statusCode} ${STATUS_CODES[statusCode]}\r\n${headers}\r\n${body}`);
  });
}

function clientErrorStatus(error: NodeJS.ErrnoException & { rawPacket?: Buffer }): number {
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return 408;
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    // The head overflowed before its first line ended: the target itself is too long.
    return error.rawPacket && !error.rawPacket.includes('\r\n') ? 414 : 431;
  }
  return 400;
}
