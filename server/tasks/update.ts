import type { ProjectRef } from '../projects/types';
import { updateTaskFields, type UpdateTaskFields } from '../schemas/task';
import type { Db } from '../db/client';
import type { InTransaction } from '../db/transaction';
import { Prisma } from '../db/generated/client';
import { notFound } from '../errors';
import { checkPrecondition, lockIfMatch, type EtagCondition } from './etag';
import { getTask, TASK_NOT_FOUND } from './get';
import { taskCondition } from './locate';
import { FOUND_REFERENCES, referenceProblem, referenceTables, type FoundReferences } from './references';
import { TASK_COLUMNS, toTask, type TaskRow } from './shape';
import { stampChange, stampInStatement, stampTaken } from './stamp';
import { changedFields, enqueueEvent, eventWanted } from '../webhooks/events';

const FIELDS = Object.keys(updateTaskFields.shape) as (keyof UpdateTaskFields)[];

type UpdatedRow = FoundReferences & {
  fresh: boolean;
  changed_at: Date;
  refs_ok: boolean;
  event_wanted: boolean;
  before: JsonTaskRow | null;
} & Partial<TaskRow>;
type JsonTaskRow = Omit<TaskRow, 'due_date' | 'created_at' | 'updated_at'> & {
  due_date: string | null;
  created_at: string;
  updated_at: string;
};

/**
 * The statement that stamps the change (`stamp`: stampInStatement, or stampTaken
 * when the transaction holds one), checks the ids the input names, reads the task
 * as it was, changes it and its lists and reads it back: the benchmark's floor
 * sends it too. Where the stamp is not fresh it changes nothing.
 */
export function updateStatement(
  workspaceId: string,
  project: ProjectRef,
  condition: Prisma.Sql,
  input: UpdateTaskFields,
  stamp: Prisma.Sql,
): Prisma.Sql {
  const sets: Prisma.Sql[] = [];
  if (input.title !== undefined) sets.push(Prisma.sql`title = ${input.title}`);
  if (input.description !== undefined) sets.push(Prisma.sql`description = ${input.description}`);
  if (input.priority !== undefined) sets.push(Prisma.sql`priority = ${input.priority}::"Priority"`);
  if (input.dueDate !== undefined) sets.push(Prisma.sql`due_date = ${input.dueDate}::timestamptz`);
  if (input.statusId !== undefined) {
    sets.push(Prisma.sql`status_id = (SELECT id FROM named_status), category = (SELECT category FROM named_status)`);
  }
  const replacesAssignees = input.assigneeIds !== undefined;
  const replacesLabels = input.labelIds !== undefined;
  return Prisma.sql`
      WITH ${stamp}, ${referenceTables(workspaceId, project, input, false)},
      before AS (SELECT ${TASK_COLUMNS} FROM task t WHERE (SELECT fresh FROM stamp) AND ${condition} LIMIT 1 FOR UPDATE OF t),
      updated AS (
        UPDATE task t SET ${Prisma.join([...sets, Prisma.sql`updated_at = (SELECT changed_at FROM stamp)`], ', ')}
        FROM before b WHERE t.id = b.id::uuid AND (SELECT ok FROM refs_ok)
        RETURNING t.id, t.number, t.title, t.description, t.category, t.priority, t.due_date, t.created_at, t.updated_at),
      unassigned AS (
        DELETE FROM task_assignee ta USING updated u
        WHERE ${replacesAssignees} AND ta.task_id = u.id AND ta.user_id <> ALL(${input.assigneeIds ?? []}::uuid[])),
      assigned AS (
        INSERT INTO task_assignee (task_id, user_id) SELECT u.id, m.id FROM updated u, members m WHERE ${replacesAssignees}
        ON CONFLICT DO NOTHING),
      unlabelled AS (
        DELETE FROM task_label tl USING updated u
        WHERE ${replacesLabels} AND tl.task_id = u.id AND tl.label_id <> ALL(${input.labelIds ?? []}::uuid[])),
      labelled AS (
        INSERT INTO task_label (task_id, label_id) SELECT u.id, l.id FROM updated u, labels l WHERE ${replacesLabels}
        ON CONFLICT DO NOTHING)
      SELECT (SELECT fresh FROM stamp) AS fresh, (SELECT changed_at FROM stamp) AS changed_at, (SELECT ok FROM refs_ok) AS refs_ok, ${FOUND_REFERENCES}, ${eventWanted(project.id, 'task.updated')} AS event_wanted,
        (SELECT to_jsonb(b) FROM before b) AS before,
        u.id::text, u.number, u.title, u.description, u.category::text, u.priority::text, u.due_date, u.created_at, u.updated_at,
        CASE WHEN ${input.statusId !== undefined}
          THEN (SELECT jsonb_build_object('id', s.id, 'name', s.name, 'color', s.color, 'category', s.category) FROM named_status s)
          ELSE (SELECT b.status FROM before b) END AS status,
        CASE WHEN ${replacesAssignees}
          THEN (SELECT coalesce(jsonb_agg(jsonb_build_object('id', m.id, 'name', m.name) ORDER BY m.name, m.id), '[]') FROM members m)
          ELSE (SELECT b.assignees FROM before b) END AS assignees,
        CASE WHEN ${replacesLabels}
          THEN (SELECT coalesce(jsonb_agg(jsonb_build_object('id', l.id, 'name', l.name, 'color', l.color) ORDER BY l.name, l.id), '[]')
                FROM labels l)
          ELSE (SELECT b.labels FROM before b) END AS labels,
        (SELECT b.attachments FROM before b) AS attachments
      FROM (SELECT 1) AS one LEFT JOIN updated u ON true`;
}

/**
 * Partial update: omitted fields stay, null clears, a list replaces the whole list;
 * `ifMatch` as lockIfMatch says. One statement stamps the change, which locks the
 * project's row (stamp.ts), checks the ids the input names, reads the task as it was,
 * changes it and its lists, and reads it back: holding that lock, nothing else changes
 * the project's tasks meanwhile. If another write committed while it waited for the
 * lock, it changed nothing and is sent again. A bad id changes nothing.
 */
export async function updateTask(
  db: Db,
  workspaceId: string,
  project: ProjectRef,
  taskId: string,
  input: UpdateTaskFields,
  options: { ifMatch?: EtagCondition; inTransaction?: InTransaction<ReturnType<typeof toTask>> } = {},
) {
  const { ifMatch, inTransaction } = options;
  const condition = taskCondition(project, taskId);
  if (!condition) throw notFound(TASK_NOT_FOUND);
  if (FIELDS.every((field) => input[field] === undefined)) {
    const task = await getTask(db, project, taskId);
    checkPrecondition(task, ifMatch);
    return task;
  }

  return db.$transaction(async (tx) => {
    const update = async (stamp: Prisma.Sql) =>
      (await tx.$queryRaw<UpdatedRow[]>(updateStatement(workspaceId, project, condition, input, stamp)))[0]!;
    let row: UpdatedRow;
    if (ifMatch) {
      const changedAt = await stampChange(tx, project.id);
      await lockIfMatch(tx, project, condition, ifMatch);
      row = await update(stampTaken(changedAt));
    } else {
      row = await update(stampInStatement(project.id));
      if (!row.fresh) row = await update(stampTaken(row.changed_at));
    }
    if (!row.refs_ok) throw referenceProblem(project, input, row);
    if (!row.before) throw notFound(TASK_NOT_FOUND);
    const updated = toTask(row as TaskRow, project.keyPrefix);
    const before = toTask(fromJson(row.before), project.keyPrefix);
    const changed = changedFields(before, updated);
    if (changed.length > 0 && row.event_wanted) await enqueueEvent(tx, project, 'task.updated', { task: updated, changes: changed });
    await inTransaction?.(tx, updated);
    return updated;
  });
}

/** A task row read as JSON (to_jsonb): its times arrive as text. */
function fromJson(row: JsonTaskRow): TaskRow {
  return {
    ...row,
    due_date: row.due_date === null ? null : new Date(row.due_date),
    created_at: new Date(row.created_at),
    updated_at: new Date(row.updated_at),
  };
}
