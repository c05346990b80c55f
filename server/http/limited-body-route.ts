import { answerError } from '../api/errors';
import { boundedRoute } from './exchange';

type RouteHandler = (req: Request) => Promise<Response>;

/** Sign-in and the settings page's calls carry a few fields: no more than this. */
export const AUTH_BODY_LIMIT = 8 * 1024;
export const SETTINGS_BODY_LIMIT = 64 * 1024;

/**
 * A route handler whose request body is read first, within `limit` bytes, the
 * body budget and the body deadline (exchange.ts), and handed on whole: whatever
 * the handler or its library does with the body, it never sees more. Too large a
 * body answers 413 in the API's error shape, too slow a one 408.
 */
export function withBodyLimit(limit: number, handler: RouteHandler): RouteHandler {
  return boundedRoute(async (req, exchange) => {
    if (req.method === 'GET' || req.method === 'HEAD' || !req.body) return handler(req);
    let bytes: Buffer;
    try {
      bytes = await exchange.readBody(req, limit);
    } catch (error) {
      const refused = answerError(error, 'request.body_failed', { path: new URL(req.url).pathname });
      return Response.json(refused, { status: refused.statusCode, headers: { 'Cache-Control': 'no-store' } });
    }
    const headers = new Headers(req.headers);
    headers.delete('content-length');
    headers.delete('transfer-encoding');
    return handler(new Request(req.url, { method: req.method, headers, body: new Uint8Array(bytes) }));
  });
}
