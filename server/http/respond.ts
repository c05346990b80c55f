import { rateLimitHeaders, type RequestState } from '../api/access';
import type { PublicError } from './errors';

export function errorResponse(state: RequestState, error: PublicError): Response {
  return Response.json(error, { status: error.statusCode, headers: responseHeaders(state, error.statusCode) });
}

export function responseHeaders(state: RequestState, status: number): Record<string, string> {
  const headers = {
    'X-Request-Id': state.requestId,
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    ...rateLimitHeaders(state.rateLimit, status),
  };
  // A body refused half-read leaves the rest of it on the connection: the client
  // must not send its next request after it.
  return status === 413 ? { ...headers, Connection: 'close' } : headers;
}
