import type { Hash } from 'node:crypto';
import type { RequestState } from '../api/access';
import { checkedIdempotencyKey, claimRequest, settleRequest } from '../api/idempotency';
import type { RouteMatch } from '../api/routes';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_KEY_IN_PROGRESS, IDEMPOTENCY_KEY_INVALID, IDEMPOTENCY_KEY_REUSED } from '../api/messages';
import { etagOfTaskJson } from '../tasks/etag';
import { errorResponse, IN_PROGRESS_RETRY_AFTER, responseHeaders } from './respond';

/**
 * The Idempotency-Key of a POST or PATCH, taken as it is sent (a quoted string
 * keeps its quotes); null without one. Other methods are idempotent already and
 * ignore it, as Stripe's API does.
 */
export function idempotencyKeyOf(method: string, headers: Headers): string | null {
  if (method !== 'POST' && method !== 'PATCH') return null;
  const value = headers.get(IDEMPOTENCY_KEY_HEADER);
  return value === null ? null : checkedIdempotencyKey(value, IDEMPOTENCY_KEY_INVALID);
}

/** The Idempotency-Key a POST or PATCH was sent with, as the request log records it: null when none or none valid. */
export function sentIdempotencyKey(method: string, headers: Headers): string | null {
  try {
    return idempotencyKeyOf(method, headers);
  } catch {
    return null;
  }
}

/** The bytes of a stream as they pass through, digested on the way (an upload's file). */
export function digesting(body: ReadableStream<Uint8Array>, hash: Hash): ReadableStream<Uint8Array> {
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        hash.update(chunk);
        controller.enqueue(chunk);
      },
    }),
  );
}

/**
 * The request holds its key now (null: it is processed), or gets its answer here:
 * the stored one, 422 for another request under the same key, or 409 while the
 * first one is still being processed (server/api/idempotency.ts).
 */
export async function claimIdempotencyKey(
  state: RequestState,
  key: string,
  fingerprint: string,
  { successStatus, etag, secretInAnswer }: Pick<RouteMatch, 'successStatus' | 'etag' | 'secretInAnswer'>,
): Promise<Response | null> {
  const outcome = await claimRequest(state, key, fingerprint, successStatus, secretInAnswer);
  switch (outcome.kind) {
    case 'claimed':
      return null;
    case 'replay':
      // The first answer's task, byte for byte, so its tag too: a client that lost the answer can go on with If-Match.
      if (etag && outcome.answer.status < 300) state.etag = etagOfTaskJson(outcome.answer.body);
      return new Response(outcome.answer.body, {
        status: outcome.answer.status,
        headers: { ...responseHeaders(state, outcome.answer.status), 'Content-Type': 'application/json', 'Idempotent-Replayed': 'true' },
      });
    case 'mismatch':
      return errorResponse(state, { statusCode: 422, message: IDEMPOTENCY_KEY_REUSED });
    case 'in_progress':
      return errorResponse(state, { statusCode: 409, message: IDEMPOTENCY_KEY_IN_PROGRESS }, IN_PROGRESS_RETRY_AFTER);
  }
}

/** The answer of a request that held a key, stored or its key given back (settleRequest), then sent. */
export async function settleIdempotencyKey(state: RequestState, answer: Response): Promise<Response> {
  // A write stored its answer with its change already.
  if (!state.idempotency || (state.idempotency.recorded && answer.ok)) return answer;
  const body = await answer.text();
  await settleRequest(state, { status: answer.status, body });
  return new Response(body, { status: answer.status, headers: answer.headers });
}
