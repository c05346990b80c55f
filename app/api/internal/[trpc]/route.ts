import { randomUUID } from 'node:crypto';
import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import type { SignedInUser } from '@/server/auth/session';
import { settingsRouter } from '@/server/settings/router';
import { sessionBeforeBody } from '@/server/settings/gate';
import { settingsError } from '@/server/settings/trpc';
import { TooManyAttempts } from '@/server/errors';
import { boundedRoute } from '@/server/http/exchange';
import { readBodyWithin, SETTINGS_BODY_LIMIT, withBody, withBodyLimit } from '@/server/http/limited-body-route';
import { deliveringAfterResponse } from '@/server/http/deliver-after-response';
import { requestFacts } from '@/server/http/request-facts';

export const dynamic = 'force-dynamic';

const ENDPOINT = '/api/internal';

/** Every answer names its request, as the public API's do: the id the audit log records for its changes. */
function answer(req: Request, user?: SignedInUser | null) {
  const requestId = randomUUID();
  return fetchRequestHandler({
    endpoint: ENDPOINT,
    req,
    router: settingsRouter,
    createContext: () => ({ headers: req.headers, user, request: requestFacts(req.headers, requestId) }),
    // The status comes from the one error mapping, like the public API's.
    responseMeta: ({ errors }) => {
      const limited = errors.map((error) => error.cause).find((cause) => cause instanceof TooManyAttempts);
      return {
        headers: { 'X-Request-Id': requestId, ...(limited && { 'Retry-After': String(limited.retryAfterSeconds) }) },
        ...(errors[0] && { status: settingsError(errors[0]).statusCode }),
      };
    },
  });
}

/**
 * The session is looked up before the body is read: without one, the calls are
 * answered from their head alone (the procedures' own refusals, 403 across sites and
 * 401 otherwise, which come before their input), and the body is never read.
 */
const post = boundedRoute(async (req, exchange) => {
  // A lookup that failed (the database away) is left to the procedures, whose refusal says so.
  const user = await sessionBeforeBody(req, ENDPOINT).catch(() => undefined);
  if (user === null) {
    // An empty JSON object in its place: each call's input is then missing, and looked at after the refusal.
    const unread = withBody(req, '{}');
    unread.headers.set('content-type', 'application/json');
    return answer(unread, null);
  }
  const read = await readBodyWithin(req, exchange, SETTINGS_BODY_LIMIT);
  return read instanceof Response ? read : answer(read, user);
});

export const GET = withBodyLimit(SETTINGS_BODY_LIMIT, (req) => answer(req));
// Sending a delivery again queues it: attempted once the answer has gone where no worker runs.
export const POST = deliveringAfterResponse(post);
