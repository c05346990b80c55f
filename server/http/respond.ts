import { rateLimitHeaders, type RequestState } from '../api/access';
import type { PublicError } from './errors';

export function errorResponse(state: RequestState, error: PublicError): Response {
  return Response.json(error, { status: error.statusCode, headers: responseHeaders(state, error.statusCode) });
}

export function responseHeaders(state: RequestState, status: number): Record<string, string> {
  return {
    'X-Request-Id': state.requestId,
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    ...rateLimitHeaders(state.rateLimit, status),
  };
}
