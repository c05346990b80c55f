import type { RequestState } from '../api/access';
import { retryAfterSeconds, WINDOW_MS, type UnmeteredDecision } from '../ratelimit/limiter';
import { BAD_KEY_ATTEMPTS_PER_MINUTE } from '../ratelimit/limits';
import type { PublicError } from '../api/errors';

/**
 * CORS as GitHub's API does it: any origin may call, never with credentials (keys
 * travel in headers a page sets itself, not in cookies), and a page may read the
 * headers that say how to retry and how to report a problem.
 */
const CORS_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers':
    'X-Request-Id, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, RateLimit-Policy, RateLimit, Retry-After, WWW-Authenticate, ETag, Idempotent-Replayed',
};
const PREFLIGHT_ALLOWED_HEADERS = 'Authorization, X-API-Key, Content-Type, If-Match, If-None-Match, Idempotency-Key';
const PREFLIGHT_MAX_AGE_SECONDS = 86_400;
// A restarted database is usually back within seconds; the pool reconnects on the next request.
const UNAVAILABLE_RETRY_AFTER_S = 5;
// A request with the same Idempotency-Key is being processed: it is usually done within a second.
export const IN_PROGRESS_RETRY_AFTER = { 'Retry-After': '1' };

export function errorResponse(state: RequestState, error: PublicError, extra: Record<string, string> = {}): Response {
  state.errorMessage = error.message;
  return Response.json(error, { status: error.statusCode, headers: { ...responseHeaders(state, error.statusCode), ...extra } });
}

export function responseHeaders(state: RequestState, status: number): Record<string, string> {
  // Built in one object: every answer of the API makes one, so no objects made only to be spread into it.
  const headers: Record<string, string> = {
    'X-Request-Id': state.requestId,
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    ...CORS_HEADERS,
  };
  if (status === 401) headers['WWW-Authenticate'] = 'Bearer';
  if (status === 503) headers['Retry-After'] = String(UNAVAILABLE_RETRY_AFTER_S);
  if (state.etag && (status < 300 || status === 304)) headers.ETag = state.etag;
  addRateLimitHeaders(headers, state, status);
  return headers;
}

/**
 * The limit of an answer given before the key is read (a target too long, a head too large):
 * its address's, for requests without a valid key, stated without counting the request.
 */
export const BEFORE_THE_KEY: UnmeteredDecision = { success: true, limit: BAD_KEY_ATTEMPTS_PER_MINUTE, unmetered: true };

/** The headers of such an answer where no request state exists: Node's own refusals of a request's head. */
export function beforeTheKeyHeaders(): Record<string, string> {
  const headers = { 'Access-Control-Allow-Origin': CORS_HEADERS['Access-Control-Allow-Origin'] };
  addRateLimitHeaders(headers, { rateLimit: BEFORE_THE_KEY, rateLimitPolicy: 'per-address' }, 0);
  return headers;
}

/** 304 Not Modified: the client's copy is current; the headers of a 200, no body (RFC 9110 section 15.4.5). */
export function notModifiedResponse(state: RequestState): Response {
  return new Response(null, { status: 304, headers: responseHeaders(state, 304) });
}

/** The answer to OPTIONS on a known path: a CORS preflight, or a client asking what it may do. */
export function preflightResponse(state: RequestState, allow: string, allowedHeaders = PREFLIGHT_ALLOWED_HEADERS): Response {
  return new Response(null, {
    status: 204,
    headers: {
      ...responseHeaders(state, 204),
      Allow: allow,
      'Access-Control-Allow-Methods': allow,
      'Access-Control-Allow-Headers': allowedHeaders,
      'Access-Control-Max-Age': String(PREFLIGHT_MAX_AGE_SECONDS),
    },
  });
}

/**
 * The headers every keyed response carries, 429s with Retry-After in seconds: the
 * X-RateLimit-* trio, and the IETF fields (draft-ietf-httpapi-ratelimit-headers)
 * `RateLimit-Policy: "per-key";q=60;w=60` and `RateLimit: "per-key";r=17;t=42`.
 * A request the limiter could not count (its store unreachable) says only the
 * policy: what remains of the window is not known, so no figure is given.
 */
function addRateLimitHeaders(
  headers: Record<string, string>,
  state: Pick<RequestState, 'rateLimit' | 'rateLimitPolicy'>,
  statusCode: number,
): void {
  const decision = state.rateLimit;
  if (!decision) return;
  const policy = `"${state.rateLimitPolicy ?? 'per-key'}"`;
  headers['X-RateLimit-Limit'] = String(decision.limit);
  headers['RateLimit-Policy'] = `${policy};q=${decision.limit};w=${WINDOW_MS / 1000}`;
  if ('unmetered' in decision) return;
  const secondsLeft = Math.max(0, Math.ceil((decision.reset - Date.now()) / 1000));
  headers['X-RateLimit-Remaining'] = String(decision.remaining);
  headers['X-RateLimit-Reset'] = String(Math.ceil(decision.reset / 1000));
  headers.RateLimit = `${policy};r=${decision.remaining};t=${secondsLeft}`;
  if (statusCode === 429) headers['Retry-After'] = String(retryAfterSeconds(decision));
}
