import type { z } from 'zod';
import type { InTransaction } from '../db/transaction';
import { conflict } from '../errors';
import { recordAnswer, type Claim } from '../idempotency/records';
import type { RequestState } from './access';
import { IDEMPOTENCY_KEY_IN_PROGRESS } from './messages';

/** A request's claim on its Idempotency-Key, with the status its operation answers on success. */
export interface RequestClaim extends Claim {
  successStatus: number;
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
    const body = JSON.stringify(schema ? schema.parse(result) : result);
    // Held past its lease, the claim went to a retry, which will answer instead: this change must not commit.
    if (!(await recordAnswer(tx, claim, { status: claim.successStatus, body }))) throw conflict(IDEMPOTENCY_KEY_IN_PROGRESS);
    claim.recorded = true;
  };
}
