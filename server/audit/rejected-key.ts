import type { Db } from '../db/client';
import { Prisma } from '../db/generated/client';
import { asUnavailable } from '../errors';
import type { RequestFacts } from './context';
import { auditStatement, noteStreamed } from './record';

const HOUR_MS = 3_600_000;
// Keys this process recorded within the hour; past this size the older ones are forgotten
// (the database's own condition still holds each key to one event an hour).
const MAX_REMEMBERED = 10_000;
const recordedAt = new Map<string, number>();
const pending = new Set<Promise<unknown>>();

function remember(keyId: string, now: number): void {
  if (recordedAt.size >= MAX_REMEMBERED) {
    for (const [id, at] of recordedAt) if (at <= now - HOUR_MS) recordedAt.delete(id);
    if (recordedAt.size >= MAX_REMEMBERED) recordedAt.clear();
  }
  recordedAt.set(keyId, now);
}

/**
 * Records `api_key.rejected` for a revoked or expired key presented again, at most once
 * an hour per key: the key's own row decides (a compare-and-set on rejection_audited_at,
 * in the statement that writes the event), so instances together record one. Off the
 * request's path, as "last used" is: the refusal does not wait, and a key that works
 * costs nothing. This process skips keys it recorded within the hour without asking.
 */
export function auditRejectedKey(db: Db, keyId: string, request: RequestFacts, onError: (error: unknown) => void): void {
  const now = Date.now();
  if ((recordedAt.get(keyId) ?? 0) > now - HOUR_MS) return;
  remember(keyId, now);
  const source = Prisma.sql`
    UPDATE api_key SET rejection_audited_at = now()
    WHERE id = ${keyId}::uuid AND (rejection_audited_at IS NULL OR rejection_audited_at < now() - interval '1 hour')
    RETURNING workspace_id, id::text AS actor_id, name AS actor_name, id::text AS target_id, name AS target_name`;
  const write = auditStatement(
    db,
    source,
    { actor: { type: 'api_key', id: keyId, name: null }, ...request },
    {
      action: 'api_key.rejected',
      targetType: 'api_key',
      changes: null,
    },
  )
    .then(noteStreamed)
    .catch((error: unknown) => {
      recordedAt.delete(keyId);
      if (!asUnavailable(error)) onError(error);
    })
    .finally(() => pending.delete(write));
  pending.add(write);
}

/** Waits for the records already started; for tests and orderly shutdown. */
export async function settleRejectedKeys(): Promise<void> {
  await Promise.all([...pending]);
}
