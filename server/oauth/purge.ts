import type { Db } from '../db/client';
import { inBatches as batches } from '../db/batches';

/** A registration no grant came of within this long is deleted: its app registers again when it next connects. */
export const UNUSED_CLIENT_HOURS = 24;
const BATCH = 500;
const MAX_BATCHES = 10;

/**
 * The authorization server's part of the scheduled purge (server/retention/purge.ts):
 * open registration lets anyone add clients, so those never approved go after a day;
 * authorization codes never exchanged, and access tokens a day past their expiry, go too.
 * Each in batches through an index, at most MAX_BATCHES a run; `more` when one stopped there.
 */
export async function purgeOAuth(db: Db, now = Date.now()): Promise<{ clients: number; codesAndTokens: number; more: boolean }> {
  const clientsBefore = new Date(now - UNUSED_CLIENT_HOURS * 3_600_000);
  const tokensBefore = new Date(now - 24 * 3_600_000);
  const clients = await inBatches(
    () => db.$executeRaw`
      DELETE FROM oauth_client WHERE id IN (
        SELECT c.id FROM oauth_client c
        WHERE c.created_at < ${clientsBefore} AND NOT EXISTS (SELECT 1 FROM oauth_grant g WHERE g.client_id = c.client_id)
        ORDER BY c.created_at LIMIT ${BATCH}::int)`,
  );
  const codes = await inBatches(
    () => db.$executeRaw`
      DELETE FROM verification WHERE id IN (
        SELECT id FROM verification WHERE expires_at < ${new Date(now)} ORDER BY expires_at LIMIT ${BATCH}::int)`,
  );
  const tokens = await inBatches(
    () => db.$executeRaw`
      DELETE FROM oauth_access_token WHERE id IN (
        SELECT id FROM oauth_access_token WHERE expires_at < ${tokensBefore} ORDER BY expires_at LIMIT ${BATCH}::int)`,
  );
  return { clients: clients.deleted, codesAndTokens: codes.deleted + tokens.deleted, more: clients.more || codes.more || tokens.more };
}

const inBatches = (batch: () => Promise<number>) => batches(batch, BATCH, MAX_BATCHES);
