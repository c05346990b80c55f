import type { RequestState } from '../api/access';
import type { RateLimitDecision } from '../ratelimit/limiter';
import type { PublicError } from '../api/errors';

/**
 * CORS as GitHub's API does it: any origin may call, never with credentials (keys
 * travel in headers a page sets itself, not in cookies), and a page may read the
 * headers that say how to retry and how to report a problem.
 */
const CORS_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers':
    'X-Request-Id, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After, WWW-Authenticate, Idempotent-Replayed',
};
const PREFLIGHT_ALLOWED_HEADERS = 'Authorization, X-API-Key, Content-Type, Idempotency-Key';
const PREFLIGHT_MAX_AGE_SECONDS = 86_400;
// A restarted database is usually back within seconds; the pool reconnects on the next request.
const UNAVAILABLE_RETRY_AFTER_S = 5;
// A 409 means a request with the same Idempotency-Key is being processed: it is usually done within a second.
const IN_PROGRESS_RETRY_AFTER_S = 1;

export function errorResponse(state: RequestState, error: PublicError, extra: Record<string, string> = {}): Response {
  return Response.json(error, { status: error.statusCode, headers: { ...responseHeaders(state, error.statusCode), ...extra } });
}

export function responseHeaders(state: RequestState, status: number): Record<string, string> {
  return {
    'X-Request-Id': state.requestId,
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    ...CORS_HEADERS,
    ...(status === 401 && { 'WWW-Authenticate': 'Bearer' }),
    ...(status === 503 && { 'Retry-After': String(UNAVAILABLE_RETRY_AFTER_S) }),
    ...(status === 409 && { 'Retry-After': String(IN_PROGRESS_RETRY_AFTER_S) }),
    ...rateLimitHeaders(state.rateLimit, status),
  };
}

/** The answer to OPTIONS on a known path: a CORS preflight, or a client asking what it may do. */
export function preflightResponse(state: RequestState, allow: string): Response {
  return new Response(null, {
    status: 204,
    headers: {
      ...responseHeaders(state, 204),
      Allow: allow,
      'Access-Control-Allow-Methods': allow,
      'Access-Control-Allow-Headers': PREFLIGHT_ALLOWED_HEADERS,
      'Access-Control-Max-Age': String(PREFLIGHT_MAX_AGE_SECONDS),
    },
  });
}

/** The headers every keyed response carries, 429s with Retry-After in seconds. */
function rateLimitHeaders(decision: RateLimitDecision | undefined, statusCode: number): Record<string, string> {
  if (!decision) return {};
  const headers: Record<string, string> = {
    'X-RateLimit-Limit': String(decision.limit),
    'X-RateLimit-Remaining': String(decision.remaining),
    'X-RateLimit-Reset': String(Math.ceil(decision.reset / 1000)),
  };
  if (statusCode === 429) headers['Retry-After'] = String(Math.max(1, Math.ceil((decision.reset - Date.now()) / 1000)));
  return headers;
}
