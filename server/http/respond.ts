import { rateLimitHeaders, type RequestState } from '../api/access';
import type { PublicError } from './errors';

// A restarted database is usually back within seconds; the pool reconnects on the next request.
const UNAVAILABLE_RETRY_AFTER_S = 5;

export function errorResponse(state: RequestState, error: PublicError): Response {
  return Response.json(error, { status: error.statusCode, headers: responseHeaders(state, error.statusCode) });
}

export function responseHeaders(state: RequestState, status: number): Record<string, string> {
  const headers = { 'X-Request-Id': state.requestId, 'Cache-Control': 'no-store', ...rateLimitHeaders(state.rateLimit, status) };
  // A body refused half-read leaves the rest of it on the connection: the client
  // must not send its next request after it.
  if (status === 413) return { ...headers, Connection: 'close' };
  return status === 503 ? { ...headers, 'Retry-After': String(UNAVAILABLE_RETRY_AFTER_S) } : headers;
}
