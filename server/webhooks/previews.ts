import type { AuditContext } from '../audit/context';
import { recordAudit } from '../audit/record';
import { PRODUCTION } from '../db/environment';
import type { Prisma } from '../db/generated/client';
import { env } from '../env';
import { urlWithoutQuery } from './endpoints';

/** What decides whether a deployment that is not production's may send to an endpoint. */
export interface PreviewDelivery {
  /** The environment of the deployment that created it; null when created before that was recorded. */
  createdIn: string | null;
  deliverOnPreviews: boolean;
}

/**
 * Why this deployment holds the deliveries to `endpoint` instead of sending them, or null
 * when it sends them: production sends to every endpoint; any other deployment (a
 * preview, on a database that may be a copy of production's) only to the endpoints
 * created on a deployment of its own environment or marked for previews, unless
 * WEBHOOKS_ON_PREVIEWS=all.
 */
export function heldBecause(endpoint: PreviewDelivery): string | null {
  const { deploymentEnvironment: here, webhooksOnPreviews } = env();
  if (here === PRODUCTION || webhooksOnPreviews === 'all') return null;
  if (endpoint.deliverOnPreviews || endpoint.createdIn === here) return null;
  const origin = endpoint.createdIn ? `on a ${endpoint.createdIn} deployment` : 'before deployments were told apart';
  return (
    `Held by this ${here} deployment: the endpoint was created ${origin} and is not marked for previews. ` +
    'Edit it and check "Deliver from preview deployments", or set WEBHOOKS_ON_PREVIEWS=all, then resend.'
  );
}

export const COPIED_FROM_PRODUCTION =
  "Copied from production's database: disabled when this database was marked as a preview's. Enable it only if it is meant to receive this deployment's events.";

/**
 * A database copied from production holds production's endpoints and their secrets: a
 * preview would send correctly signed events about its test data to real receivers.
 * Disables every enabled one not marked for previews, each with its audit event, in the
 * caller's transaction.
 */
export async function disableCopiedEndpoints(tx: Prisma.TransactionClient, audit: AuditContext): Promise<number> {
  const disabled = await tx.$queryRaw<{ id: string; workspace_id: string; url: string }[]>`
    UPDATE webhook_endpoint SET disabled_at = now(), disabled_reason = ${COPIED_FROM_PRODUCTION}
    WHERE disabled_at IS NULL AND NOT deliver_on_previews
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
