import { answerError } from '../api/errors';
import { boundedRoute, type Exchange } from './exchange';

type RouteHandler = (req: Request) => Promise<Response>;

/** Sign-in and the settings page's calls carry a few fields: no more than this. */
export const AUTH_BODY_LIMIT = 8 * 1024;
export const SETTINGS_BODY_LIMIT = 64 * 1024;

/** `req` with `body` in place of the body it came with, and without that body's length headers. */
export function withBody(req: Request, body: BodyInit | null): Request {
  const headers = new Headers(req.headers);
  headers.delete('content-length');
  headers.delete('transfer-encoding');
  return new Request(req.url, { method: req.method, headers, body });
}

/**
 * Reads the request's body within `limit` bytes, the body budget and the body
 * deadline (exchange.ts): the request with its body whole, or the refusal to answer
 * (413 too large, 408 too slow, in the API's error shape).
 */
export async function readBodyWithin(req: Request, exchange: Exchange, limit: number): Promise<Request | Response> {
  if (req.method === 'GET' || req.method === 'HEAD' || !req.body) return req;
  let bytes: Buffer;
  try {
    bytes = await exchange.readBody(req, limit);
  } catch (error) {
    const refused = answerError(error, 'request.body_failed', { path: new URL(req.url).pathname });
    return Response.json(refused, { status: refused.statusCode, headers: { 'Cache-Control': 'no-store' } });
  }
  return withBody(req, new Uint8Array(bytes));
}

/**
 * A route handler whose request body is read first (readBodyWithin) and handed on
 * whole: whatever the handler or its library does with the body, it never sees more.
 */
export function withBodyLimit(limit: number, handler: RouteHandler): RouteHandler {
  return boundedRoute(async (req, exchange) => {
    const read = await readBodyWithin(req, exchange, limit);
    return read instanceof Response ? read : handler(read);
  });
}
