import type { Db } from '../db/client';
import { asUnavailable } from '../errors';

const INTERVAL_MS = 60_000;
const touched = new Map<string, number>();
const pending = new Set<Promise<unknown>>();

/**
 * Records that a key was used, at most once a minute per key and off the
 * request's path: the caller does not wait, and the database's own condition
 * keeps several server instances from writing more often either.
 */
export function markKeyUsed(db: Db, keyId: string, onError: (error: unknown) => void): void {
  const now = Date.now();
  if ((touched.get(keyId) ?? 0) > now - INTERVAL_MS) return;
  touched.set(keyId, now);
  const update = db.$executeRaw`
    UPDATE api_key SET last_used_at = now()
    WHERE id = ${keyId}::uuid AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`
    .catch((error: unknown) => {
      // The next request tries again; an outage of the database is logged by the requests it fails.
      touched.delete(keyId);
      if (!asUnavailable(error)) onError(error);
    })
    .finally(() => pending.delete(update));
  pending.add(update);
}

/** Waits for the writes already started; for tests and orderly shutdown. */
export async function settleKeyUsage(): Promise<void> {
  await Promise.all([...pending]);
}
