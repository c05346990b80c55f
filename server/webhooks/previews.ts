import type { AuditContext } from '../audit/context';
import { recordAudit } from '../audit/record';
import type { Prisma } from '../db/generated/client';
import { urlWithoutQuery } from './endpoints';

export const COPIED_FROM_PRODUCTION =
  "Copied from production's database: disabled when this database was marked as a preview's. Enable it only if it is meant to receive this deployment's events.";

/**
 * A database copied from production holds production's endpoints and their secrets: a
 * preview would send correctly signed events about its test data to real receivers.
 * Disables every enabled one, each with its audit event, in the caller's transaction.
 */
export async function disableCopiedEndpoints(tx: Prisma.TransactionClient, audit: AuditContext): Promise<number> {
  const disabled = await tx.$queryRaw<{ id: string; workspace_id: string; url: string }[]>`
    UPDATE webhook_endpoint SET disabled_at = now(), disabled_reason = ${COPIED_FROM_PRODUCTION}
    WHERE disabled_at IS NULL
    RETURNING id::text, workspace_id::text, url`;
  for (const endpoint of disabled) {
    await recordAudit(tx, endpoint.workspace_id, audit, {
      action: 'webhook_endpoint.disabled',
      target: { type: 'webhook_endpoint', id: endpoint.id, name: urlWithoutQuery(endpoint.url) },
      before: { enabled: true },
      after: { enabled: false },
    });
  }
  return disabled.length;
}
