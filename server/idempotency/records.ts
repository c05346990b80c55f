import { randomUUID } from 'node:crypto';
import type { Db } from '../db/client';
import type { Prisma } from '../db/generated/client';

/** How long an answer is kept for retries, as Stripe keeps its idempotency keys. */
export const RECORD_TTL_SECONDS = 24 * 60 * 60;
// A request that claimed a key and then crashed (or lost its database) blocks retries at most
// this long. A slower request loses its claim and rolls back rather than run twice (recordAnswer).
const CLAIM_LEASE_SECONDS = 30;

/** A request's answer as it was sent: the status and the JSON text of the body. */
export interface StoredAnswer {
  status: number;
  body: string;
}

/** The right to process the request that first sent this key: only its holder records an answer. */
export interface Claim {
  apiKeyId: string;
  key: string;
  token: string;
  /** The answer was written in the change's transaction. */
  recorded: boolean;
}

export type ClaimOutcome =
  { kind: 'claimed'; claim: Claim } | { kind: 'replay'; answer: StoredAnswer } | { kind: 'in_progress' } | { kind: 'mismatch' };

type Writer = Pick<Prisma.TransactionClient, '$executeRaw'>;

/**
 * Claims `key` for this request, in one statement that commits at once, so a
 * parallel request with the same key finds the claim without waiting for the
 * first one's transaction. A record past its 24 hours, or a claim whose request
 * never finished, is taken over. Otherwise the record decides: the same
 * fingerprint gets the stored answer (or waits, while there is none), another
 * fingerprint is a different request.
 */
export async function claimKey(db: Db, apiKeyId: string, key: string, fingerprint: string): Promise<ClaimOutcome> {
  const token = randomUUID();
  const claimed = await db.$queryRaw<unknown[]>`
    INSERT INTO idempotency_record AS r (api_key_id, key, fingerprint, claim_token, locked_until, expires_at)
    VALUES (${apiKeyId}::uuid, ${key}, ${fingerprint}, ${token}::uuid,
            now() + ${CLAIM_LEASE_SECONDS}::int * interval '1 second', now() + ${RECORD_TTL_SECONDS}::int * interval '1 second')
    ON CONFLICT (api_key_id, key) DO UPDATE SET
      fingerprint = EXCLUDED.fingerprint, claim_token = EXCLUDED.claim_token, locked_until = EXCLUDED.locked_until,
      status = NULL, body = NULL, expires_at = EXCLUDED.expires_at
    WHERE r.expires_at <= now() OR (r.status IS NULL AND r.locked_until <= now())
    RETURNING 1`;
  if (claimed.length > 0) return { kind: 'claimed', claim: { apiKeyId, key, token, recorded: false } };

  const [record] = await db.$queryRaw<{ fingerprint: string; status: number | null; body: string | null }[]>`
    SELECT fingerprint, status, body FROM idempotency_record WHERE api_key_id = ${apiKeyId}::uuid AND key = ${key}`;
  if (record && record.fingerprint !== fingerprint) return { kind: 'mismatch' };
  // No record: the claim was given up a moment ago (its request failed); a retry may claim it.
  if (!record || record.status === null || record.body === null) return { kind: 'in_progress' };
  return { kind: 'replay', answer: { status: record.status, body: record.body } };
}

/**
 * Stores the answer, in the caller's transaction when there was a change. False
 * when the claim is no longer this request's (its lease ran out and a retry took
 * it over): the caller must then not commit its change.
 */
export async function recordAnswer(db: Writer, claim: Claim, answer: StoredAnswer): Promise<boolean> {
  const count = await db.$executeRaw`
    UPDATE idempotency_record SET status = ${answer.status}::int, body = ${answer.body}, locked_until = NULL
    WHERE api_key_id = ${claim.apiKeyId}::uuid AND key = ${claim.key} AND claim_token = ${claim.token}::uuid`;
  return count > 0;
}

/** Gives the key back after an answer a retry might change (5xx, 429): the next request with it is processed. */
export async function releaseClaim(db: Db, claim: Claim): Promise<void> {
  await db.$executeRaw`
    DELETE FROM idempotency_record
    WHERE api_key_id = ${claim.apiKeyId}::uuid AND key = ${claim.key} AND claim_token = ${claim.token}::uuid AND status IS NULL`;
}

const SWEEP_BATCH = 500;
const SWEEP_MAX_BATCHES = 20;

/**
 * Deletes expired records oldest first, in batches found through the index on
 * `expires_at`, never scanning the table, at most 10,000 a run; `more` when it
 * stopped there. The outer condition is checked again on a row a claim has just
 * taken over, which keeps it. `asOf` (the database's clock unless given) is for
 * tests that look ahead.
 */
export async function sweepExpiredRecords(db: Db, asOf?: Date): Promise<{ deleted: number; more: boolean }> {
  const now = asOf?.toISOString() ?? null;
  let deleted = 0;
  for (let batch = 0; batch < SWEEP_MAX_BATCHES; batch++) {
    const count = await db.$executeRaw`
      DELETE FROM idempotency_record
      WHERE (api_key_id, key) IN (
        SELECT api_key_id, key FROM idempotency_record WHERE expires_at <= coalesce(${now}::timestamptz, now())
        ORDER BY expires_at LIMIT ${SWEEP_BATCH}::int)
      AND expires_at <= coalesce(${now}::timestamptz, now())`;
    deleted += count;
    if (count < SWEEP_BATCH) return { deleted, more: false };
  }
  return { deleted, more: true };
}
