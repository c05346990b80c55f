import { createHash, type Hash } from 'node:crypto';
import type { RequestState } from '../api/access';
import type { RequestClaim } from '../api/idempotency';
import type { RouteMatch } from '../api/routes';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_KEY_IN_PROGRESS, IDEMPOTENCY_KEY_INVALID, IDEMPOTENCY_KEY_REUSED } from '../api/messages';
import { db } from '../db/client';
import { asUnavailable, badRequest } from '../errors';
import { claimKey, recordAnswer, releaseClaim, sweepNowAndThen } from '../idempotency/records';
import { logEvent } from '../log';
import { etagOfTaskJson } from '../tasks/etag';
import { errorResponse, IN_PROGRESS_RETRY_AFTER, responseHeaders } from './respond';

const PRINTABLE_ASCII_KEY = /^[\x20-\x7e]{1,255}$/;

/**
 * The Idempotency-Key of a POST or PATCH, taken as it is sent (a quoted string
 * keeps its quotes); null without one. Other methods are idempotent already and
 * ignore it, as Stripe's API does.
 */
export function idempotencyKeyOf(method: string, headers: Headers): string | null {
  if (method !== 'POST' && method !== 'PATCH') return null;
  const value = headers.get(IDEMPOTENCY_KEY_HEADER);
  if (value === null) return null;
  if (!PRINTABLE_ASCII_KEY.test(value)) throw badRequest(IDEMPOTENCY_KEY_INVALID);
  return value;
}

/** What makes two requests the same one: method, path and body, whatever the order of the body's members. */
export function requestFingerprint(method: string, path: string, body: unknown): string {
  return createHash('sha256').update(`${method} ${path}\n`).update(canonicalJson(body)).digest('hex');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const members = Object.keys(value)
      .sort()
      .map((name) => `${JSON.stringify(name)}:${canonicalJson((value as Record<string, unknown>)[name])}`);
    return `{${members.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
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
 * Consults the store, once the gate has admitted the request and its body is
 * read: the request either holds the key now (and is processed), or gets its
 * answer here: the stored one, 422 for another request under the same key, or
 * 409 while the first one is still being processed.
 */
export async function claimIdempotencyKey(
  state: RequestState,
  key: string,
  fingerprint: string,
  { successStatus, etag }: Pick<RouteMatch, 'successStatus' | 'etag'>,
): Promise<{ claim: RequestClaim } | { answer: Response }> {
  const outcome = await claimKey(db(), state.authenticated!.principal.keyId, key, fingerprint);
  switch (outcome.kind) {
    case 'claimed':
      sweepNowAndThen(db(), (error) => logEvent('error', 'idempotency.sweep_failed', { error }));
      state.idempotency = { ...outcome.claim, successStatus };
      return { claim: state.idempotency };
    case 'replay':
      // The first answer's task, byte for byte, so its tag too: a client that lost the answer can go on with If-Match.
      if (etag && outcome.answer.status < 300) state.etag = etagOfTaskJson(outcome.answer.body);
      return {
        answer: new Response(outcome.answer.body, {
          status: outcome.answer.status,
          headers: { ...responseHeaders(state, outcome.answer.status), 'Content-Type': 'application/json', 'Idempotent-Replayed': 'true' },
        }),
      };
    case 'mismatch':
      return { answer: errorResponse(state, { statusCode: 422, message: IDEMPOTENCY_KEY_REUSED }) };
    case 'in_progress':
      return { answer: errorResponse(state, { statusCode: 409, message: IDEMPOTENCY_KEY_IN_PROGRESS }, IN_PROGRESS_RETRY_AFTER) };
  }
}

/**
 * The answer of a request that held a key, once it is known: stored, unless a
 * retry might be answered otherwise (5xx, 429, and 412: a client that read the
 * task again retries with its new ETag, and the same request with a stale one is
 * refused again anyway), in which case the key is given back. A write has stored its answer in its own transaction already; what is
 * stored here changed nothing (a refusal, an update that changed no field).
 */
export async function settleIdempotencyKey(state: RequestState, answer: Response): Promise<Response> {
  const claim = state.idempotency;
  if (!claim) return answer;
  // Should either statement fail, the claim's lease runs out by itself and retries are processed after it;
  // an outage of the database is logged by the requests it fails.
  const failed = (event: string) => (error: unknown) => {
    if (!asUnavailable(error)) logEvent('error', event, { requestId: state.requestId, error });
  };
  if (answer.status >= 500 || answer.status === 429 || answer.status === 412) {
    await releaseClaim(db(), claim).catch(failed('idempotency.release_failed'));
    return answer;
  }
  if (claim.recorded) return answer;
  const body = await answer.text();
  await recordAnswer(db(), claim, { status: answer.status, body }).catch(failed('idempotency.record_failed'));
  return new Response(body, { status: answer.status, headers: answer.headers });
}
