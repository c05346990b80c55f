import { Prisma } from '../db/generated/client';
import { deliverJob } from '../outbox/delivery-job';
import { noteDeliveryQueued } from '../outbox/request-scope';
import { actionGroup, CHANGE_FIELDS, type AuditAction, type TargetType } from '../schemas/audit';
import type { AuditContext } from './context';

/** The webhook event type every audit event is streamed as, to the endpoints that chose it. */
export const AUDIT_EVENT_TYPE = 'audit.event';

export interface AuditTarget {
  type: TargetType;
  id: string | null;
  /** As it was when the event happened. */
  name: string | null;
}

export type AuditChanges = Record<string, { before: unknown; after: unknown }>;

export interface AuditRecord {
  action: AuditAction;
  target: AuditTarget;
  /** The change's fields before and after; only CHANGE_FIELDS are kept, and only those that differ. */
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
}

type Runner = Pick<Prisma.TransactionClient, '$queryRaw'>;
type Outcome = { recorded: number; queued: number }[];

/** JSON as it is stored: Dates as ISO text, missing as null. */
const plain = (value: unknown): unknown => (value === undefined ? null : JSON.parse(JSON.stringify(value)));

export function changesOf(before?: Record<string, unknown> | null, after?: Record<string, unknown> | null): AuditChanges | null {
  const changes: AuditChanges = {};
  for (const field of CHANGE_FIELDS) {
    if (!(before && field in before) && !(after && field in after)) continue;
    const was = plain(before?.[field]);
    const is = plain(after?.[field]);
    if (JSON.stringify(was) !== JSON.stringify(is)) changes[field] = { before: was, after: is };
  }
  return Object.keys(changes).length > 0 ? changes : null;
}

const iso = (column: Prisma.Sql) => Prisma.sql`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** An audit_event row `r` as the API answers it (server/schemas/audit.ts), for the webhook's body. */
const eventJson = Prisma.sql`json_build_object(
  'id', r.id, 'occurredAt', ${iso(Prisma.sql`r.occurred_at`)}, 'action', r.action,
  'actor', json_build_object('type', r.actor_type, 'id', r.actor_id, 'name', r.actor_name),
  'target', json_build_object('type', r.target_type, 'id', r.target_id, 'name', r.target_name),
  'ip', r.ip, 'userAgent', r.user_agent, 'requestId', r.request_id, 'changes', r.changes)`;

/**
 * Who and what an event names, as rows of (workspace_id, actor_id, actor_name, target_id,
 * target_name): one row, one event. Most events know them; a sign-in reads them from the
 * person's memberships (sign-in.ts), one event per workspace.
 */
export function knownSource(workspaceId: string, context: AuditContext, target: AuditTarget): Prisma.Sql {
  return Prisma.sql`SELECT ${workspaceId}::uuid AS workspace_id, ${context.actor.id}::text AS actor_id,
    ${context.actor.name}::text AS actor_name, ${target.id}::text AS target_id, ${target.name}::text AS target_name`;
}

/**
 * One statement that records an event for each row of `source` and, for every enabled
 * endpoint of its workspace that chose `audit.event`, its delivery and the delivery's
 * job: in the caller's transaction, they commit with the change or not at all.
 */
export function auditStatement(
  runner: Runner,
  source: Prisma.Sql,
  context: AuditContext,
  event: { action: AuditAction; targetType: TargetType; changes: AuditChanges | null },
): Prisma.PrismaPromise<Outcome> {
  const changes = event.changes ? JSON.stringify(event.changes) : null;
  return runner.$queryRaw<Outcome>`
    WITH source AS (${source}),
    recorded AS (
      INSERT INTO audit_event (id, workspace_id, occurred_at, action, action_group, actor_type, actor_id, actor_name,
        target_type, target_id, target_name, ip, user_agent, request_id, changes)
      SELECT gen_random_uuid(), s.workspace_id, now(), ${event.action}::text, ${actionGroup(event.action)}::text,
        ${context.actor.type}::text, s.actor_id, s.actor_name, ${event.targetType}::text, s.target_id, s.target_name,
        ${context.ip}::text, ${context.userAgent}::text, ${context.requestId}::text, ${changes}::jsonb
      FROM source s
      RETURNING *),
    streamed AS (
      INSERT INTO webhook_delivery (id, endpoint_id, message_id, event_type, payload, updated_at)
      SELECT d.id, d.endpoint_id, 'msg_' || replace(d.id::text, '-', ''), ${AUDIT_EVENT_TYPE}, d.payload, now()
      FROM (
        SELECT gen_random_uuid() AS id, e.id AS endpoint_id, json_build_object(
          'type', ${AUDIT_EVENT_TYPE}::text, 'timestamp', ${iso(Prisma.sql`r.occurred_at`)},
          'data', json_build_object('workspace', json_build_object('id', w.id, 'slug', w.slug), 'event', ${eventJson}))::text AS payload
        FROM recorded r
        JOIN workspace w ON w.id = r.workspace_id
        JOIN webhook_endpoint e ON e.workspace_id = r.workspace_id AND e.disabled_at IS NULL AND e.project_id IS NULL
          AND ${AUDIT_EVENT_TYPE} = ANY(e.events)) d
      RETURNING id)
    SELECT (SELECT count(*) FROM recorded)::int AS recorded,
      (SELECT count(${deliverJob(Prisma.sql`streamed.id::text`)}) FROM streamed)::int AS queued`;
}

/** After an audit statement ran: a request that queued a delivery attempts it after answering where no worker runs. */
export function noteStreamed(outcome: Outcome): void {
  if ((outcome[0]?.queued ?? 0) > 0) noteDeliveryQueued();
}

/** Records one event in `workspaceId`, in the transaction `tx` of the change it records: one statement. */
export async function recordAudit(tx: Runner, workspaceId: string, context: AuditContext, event: AuditRecord): Promise<void> {
  const statement = auditStatement(tx, knownSource(workspaceId, context, event.target), context, {
    action: event.action,
    targetType: event.target.type,
    changes: changesOf(event.before, event.after),
  });
  noteStreamed(await statement);
}
