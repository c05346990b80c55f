import { Prisma } from '../db/generated/client';

/**
 * The graphile-worker task that delivers one webhook_delivery row. A change queues its
 * deliveries here, in its own transaction, whether they carry a webhook event or an audit
 * event: the audit log and webhooks write through this and neither knows the other.
 */
export const DELIVER_JOB = 'webhook_deliver';

/**
 * Queues the attempt at a delivery, as an SQL expression. The job's key is the
 * delivery: one job per delivery, so queuing it again (a resend, a retry) moves that
 * job rather than adding a second (graphile-worker gives a new job the key only when
 * the one holding it is running: that one is the attempt queuing its own retry).
 */
export function deliverJob(deliveryId: Prisma.Sql | string, runAt?: Date): Prisma.Sql {
  const id = typeof deliveryId === 'string' ? Prisma.sql`${deliveryId}::text` : deliveryId;
  return runAt
    ? Prisma.sql`graphile_worker.add_job(${DELIVER_JOB}, json_build_object('deliveryId', ${id}), run_at := ${runAt}, job_key := ${id})`
    : Prisma.sql`graphile_worker.add_job(${DELIVER_JOB}, json_build_object('deliveryId', ${id}), job_key := ${id})`;
}
