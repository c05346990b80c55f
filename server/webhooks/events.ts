import { randomUUID } from 'node:crypto';
import { Prisma } from '../db/generated/client';
import { deliverJob } from '../outbox/delivery-job';
import { noteDeliveryQueued } from '../outbox/request-scope';
import type { ProjectRef } from '../projects/types';

/** A project's events: an endpoint choosing no type gets all of these. */
export const PROJECT_EVENT_TYPES = ['task.created', 'task.updated', 'task.deleted', 'comment.created', 'attachment.created'] as const;
export type ProjectEventType = (typeof PROJECT_EVENT_TYPES)[number];
/**
 * The workspace's audit log (server/audit/record.ts), streamed to the endpoints of the whole
 * workspace that name it: receivers of the project events get no new body shape unasked.
 */
export const WORKSPACE_EVENT_TYPES = ['audit.event'] as const;
export const EVENT_TYPES = [...PROJECT_EVENT_TYPES, ...WORKSPACE_EVENT_TYPES] as const;
export type EventType = (typeof EVENT_TYPES)[number];
/** Sent to one endpoint when asked for (GitHub's ping), whatever types it chose; no endpoint subscribes to it. */
export const TEST_EVENT_TYPE = 'webhook.test';

type Tx = Pick<Prisma.TransactionClient, '$queryRaw' | '$executeRaw'>;

/** What changed, as the event's `data` holds it beside `workspace` and `project`. */
export type EventData = Record<string, unknown>;

interface Target {
  endpoint_id: string;
  workspace_id: string;
  workspace_slug: string;
}

/** The endpoints `e` of project `p`'s workspace that want an event of this type now. */
const wants = (type: ProjectEventType) => Prisma.sql`
  e.workspace_id = p.workspace_id AND e.disabled_at IS NULL
  AND (e.project_id IS NULL OR e.project_id = p.id)
  AND (cardinality(e.events) = 0 OR ${type} = ANY(e.events))`;

/**
 * Whether any endpoint wants this event: a column for a write's own statement, so
 * that a write nobody listens to sends no statement more for its event.
 */
export function eventWanted(projectId: string, type: ProjectEventType): Prisma.Sql {
  return Prisma.sql`EXISTS (SELECT 1 FROM project p JOIN webhook_endpoint e ON ${wants(type)} WHERE p.id = ${projectId}::uuid)`;
}

/**
 * Records one event for every enabled endpoint of the project's workspace that
 * wants it, and queues its delivery, in the caller's transaction: the event
 * exists if and only if the change commits. Costs one statement when no
 * endpoint wants it and two however many do; `data` given as a function is only
 * built when one does.
 */
export async function enqueueEvent(
  tx: Tx,
  project: ProjectRef,
  type: ProjectEventType,
  data: EventData | (() => Promise<EventData>),
): Promise<void> {
  await enqueueEvents(tx, project, type, async () => [typeof data === 'function' ? await data() : data]);
}

/**
 * As enqueueEvent, for several changes of one kind (a batch's tasks): one event
 * each, still in one statement when no endpoint wants them and two however many
 * events and endpoints there are.
 */
export async function enqueueEvents(tx: Tx, project: ProjectRef, type: ProjectEventType, data: () => Promise<EventData[]>): Promise<void> {
  const targets = await tx.$queryRaw<Target[]>`
    SELECT e.id::text AS endpoint_id, w.id::text AS workspace_id, w.slug AS workspace_slug
    FROM project p
    JOIN workspace w ON w.id = p.workspace_id
    JOIN webhook_endpoint e ON ${wants(type)}
    WHERE p.id = ${project.id}::uuid`;
  if (targets.length === 0) return;
  const [first] = targets;
  const timestamp = new Date().toISOString();
  const payloads = (await data()).map((each) =>
    JSON.stringify({
      type,
      timestamp,
      data: {
        workspace: { id: first!.workspace_id, slug: first!.workspace_slug },
        project: { id: project.id, slug: project.slug },
        ...each,
      },
    }),
  );
  const deliveries = payloads.flatMap((payload) =>
    targets.map((target) => ({ id: randomUUID(), endpointId: target.endpoint_id, payload })),
  );
  // Every endpoint's delivery and its job in one statement, however many endpoints want
  // the event. Retries after a failed attempt are jobs of their own (deliver.ts);
  // graphile-worker's own retries cover only a worker that failed to record the attempt.
  await tx.$queryRaw`
    WITH added AS (
      INSERT INTO webhook_delivery (id, endpoint_id, message_id, event_type, payload, updated_at)
      SELECT d.id, d.endpoint_id, 'msg_' || replace(d.id::text, '-', ''), ${type}, d.payload, now()
      FROM unnest(${deliveries.map((d) => d.id)}::uuid[], ${deliveries.map((d) => d.endpointId)}::uuid[], ${deliveries.map((d) => d.payload)}::text[])
        AS d (id, endpoint_id, payload)
      RETURNING id)
    SELECT count(${deliverJob(Prisma.sql`added.id::text`)})::int AS queued FROM added`;
  noteDeliveryQueued();
}

/**
 * Records a `webhook.test` event for one endpoint and queues its delivery, in the caller's
 * transaction; returns the delivery's id.
 */
export async function enqueueTestEvent(tx: Tx, endpointId: string): Promise<string> {
  const [endpoint] = await tx.$queryRaw<Target[]>`
    SELECT e.id::text AS endpoint_id, w.id::text AS workspace_id, w.slug AS workspace_slug
    FROM webhook_endpoint e JOIN workspace w ON w.id = e.workspace_id WHERE e.id = ${endpointId}::uuid`;
  const id = randomUUID();
  const payload = JSON.stringify({
    type: TEST_EVENT_TYPE,
    timestamp: new Date().toISOString(),
    data: { workspace: { id: endpoint!.workspace_id, slug: endpoint!.workspace_slug }, webhook: { id: endpointId } },
  });
  await tx.$queryRaw`
    WITH added AS (
      INSERT INTO webhook_delivery (id, endpoint_id, message_id, event_type, payload, updated_at)
      VALUES (${id}::uuid, ${endpointId}::uuid, ${`msg_${id.replace(/-/g, '')}`}, ${TEST_EVENT_TYPE}, ${payload}, now())
      RETURNING id)
    SELECT count(${deliverJob(Prisma.sql`added.id::text`)})::int AS queued FROM added`;
  noteDeliveryQueued();
  return id;
}

/** The fields of a resource whose values differ, `updatedAt` aside: what a `task.updated` lists in `changes`. */
export function changedFields<T extends Record<string, unknown>>(before: T, after: T): string[] {
  return Object.keys(after).filter((field) => field !== 'updatedAt' && JSON.stringify(before[field]) !== JSON.stringify(after[field]));
}
