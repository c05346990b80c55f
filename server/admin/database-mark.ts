import type { AuditContext } from '../audit/context';
import { auditStatement, noteStreamed } from '../audit/record';
import type { Db } from '../db/client';
import { markEnvironment, PRODUCTION } from '../db/environment';
import { Prisma } from '../db/generated/client';
import { disableCopiedEndpoints } from '../webhooks/previews';

export interface Marked {
  environment: string;
  previous: string | null;
  /** Webhook endpoints disabled because the database was production's. */
  endpointsDisabled: number;
}

/**
 * Records the environment a database serves, in one transaction. A database that was
 * production's and now serves another (a branch copied for a preview) has its enabled
 * webhook endpoints disabled first; every workspace's audit log records the change.
 */
export async function markDatabase(db: Db, environment: string, audit: AuditContext): Promise<Marked> {
  return db.$transaction(async (tx) => {
    const previous = await markEnvironment(tx, environment);
    if (previous === environment) return { environment, previous, endpointsDisabled: 0 };
    const endpointsDisabled = previous === PRODUCTION ? await disableCopiedEndpoints(tx, audit) : 0;
    const everyWorkspace = Prisma.sql`SELECT w.id AS workspace_id, ${audit.actor.id}::text AS actor_id,
      ${audit.actor.name}::text AS actor_name, NULL::text AS target_id, ${environment}::text AS target_name FROM workspace w`;
    noteStreamed(
      await auditStatement(tx, everyWorkspace, audit, {
        action: 'database.environment_marked',
        targetType: 'database',
        changes: { environment: { before: previous, after: environment } },
      }),
    );
    return { environment, previous, endpointsDisabled };
  });
}
