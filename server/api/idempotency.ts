import { createHash } from 'node:crypto';
import type { z } from 'zod';
import { openText, sealText } from '../app-secret';
import { db } from '../db/client';
import type { InTransaction } from '../db/transaction';
import { asUnavailable, badRequest, conflict } from '../errors';
import { claimKey, recordAnswer, releaseClaim, type Claim, type StoredAnswer } from '../idempotency/records';
import { logEvent } from '../log';
import type { RequestState } from './access';
import { IDEMPOTENCY_KEY_IN_PROGRESS } from './messages';

/** A request's claim on its Idempotency-Key, with the status its operation answers on success. */
export interface RequestClaim extends Claim {
  successStatus: number;
  /** Its answer holds a secret shown once (a webhook's signing secret): the record keeps it sealed. */
  sealed: boolean;
}

const SEALED_ANSWER = 'idempotent-answer';

/** The body as the record keeps it: sealed when it holds a secret (JSON text never starts with `v1.`). */
const storedBody = (claim: RequestClaim, body: string) => (claim.sealed ? sealText(SEALED_ANSWER, body) : body);
const sentBody = (stored: string) => (stored.startsWith('v1.') ? openText(SEALED_ANSWER, stored) : stored);

const PRINTABLE_ASCII_KEY = /^[\x20-\x7e]{1,255}$/;

/** The key as sent (a quoted string keeps its quotes), or 400 with `invalid` when it is no key. */
export function checkedIdempotencyKey(value: string, invalid: string): string {
  if (!PRINTABLE_ASCII_KEY.test(value)) throw badRequest(invalid);
  return value;
}

/**
 * What makes two requests the same one: method, path and body, whatever the order
 * of the body's members. An MCP tool call is fingerprinted as the REST request it
 * stands for, so a key means the same on both.
 */
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

export type ClaimedRequest =
  { kind: 'claimed' } | { kind: 'replay'; answer: StoredAnswer } | { kind: 'mismatch' } | { kind: 'in_progress' };

/**
 * Consults the store, once the gate has admitted the request and its body is
 * read: the request either holds the key now (and is processed, its write storing
 * its answer: `recordedAnswer`), or is answered from the record: the stored
 * answer, another request under the same key (422), or one still being processed (409).
 */
export async function claimRequest(
  state: RequestState,
  key: string,
  fingerprint: string,
  successStatus: number,
  sealed = false,
): Promise<ClaimedRequest> {
  const outcome = await claimKey(db(), state.authenticated!.principal.keyId, key, fingerprint);
  if (outcome.kind === 'replay') {
    state.replayed = true;
    const answer = { ...outcome.answer, body: sentBody(outcome.answer.body) };
    if (answer.status >= 400) state.errorMessage = storedMessage(answer.body);
    return { kind: 'replay', answer };
  }
  if (outcome.kind !== 'claimed') return outcome;
  state.idempotency = { ...outcome.claim, successStatus, sealed };
  return { kind: 'claimed' };
}

/** The message of a stored error answer (`{statusCode, message}`, as the server wrote it). */
function storedMessage(body: string): string | undefined {
  try {
    const { message } = JSON.parse(body) as { message?: unknown };
    return typeof message === 'string' ? message : undefined;
  } catch {
    return undefined;
  }
}

/**
 * For a request that claimed an Idempotency-Key: the write's last step, which
 * stores its answer in the write's transaction, so the change and the record
 * commit together or not at all. The body is the JSON text the client is sent:
 * `schema` is the procedure's output schema, applied as tRPC applies it before
 * writing the answer (without one, the value is sent as it is).
 */
export function recordedAnswer<T>(state: RequestState, schema?: z.ZodType): InTransaction<T> | undefined {
  const claim = state.idempotency;
  if (!claim) return undefined;
  return async (tx, result) => {
    const body = storedBody(claim, JSON.stringify(schema ? schema.parse(result) : result));
    // Held past its lease, the claim went to a retry, which will answer instead: this change must not commit.
    if (!(await recordAnswer(tx, claim, { status: claim.successStatus, body }))) throw conflict(IDEMPOTENCY_KEY_IN_PROGRESS);
    claim.recorded = true;
  };
}

/**
 * The answer of a request that held a key, once it is known: stored, unless a
 * retry might be answered otherwise (5xx, 429, and 412: a client that read the
 * task again retries with its new ETag, and the same request with a stale one is
 * refused again anyway), in which case the key is given back. A write has stored
 * its answer in its own transaction already; what is stored here changed nothing
 * (a refusal, an update that changed no field).
 */
export async function settleRequest(state: RequestState, answer: StoredAnswer): Promise<void> {
  const claim = state.idempotency;
  if (!claim) return;
  // Should either statement fail, the claim's lease runs out by itself and retries are processed after it;
  // an outage of the database is logged by the requests it fails.
  const failed = (event: string) => (error: unknown) => {
    if (!asUnavailable(error)) logEvent('error', event, { requestId: state.requestId, error });
  };
  if (answer.status >= 500 || answer.status === 429 || answer.status === 412) {
    await releaseClaim(db(), claim).catch(failed('idempotency.release_failed'));
  } else if (!claim.recorded) {
    await recordAnswer(db(), claim, { ...answer, body: storedBody(claim, answer.body) }).catch(failed('idempotency.record_failed'));
  }
}
