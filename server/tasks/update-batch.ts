import type { ProjectRef } from '../projects/types';
import type { TaskChangeFields } from '../schemas/task';
import type { Db } from '../db/client';
import type { InTransaction } from '../db/transaction';
import { Prisma } from '../db/generated/client';
import { AppError, badRequest, notFound } from '../errors';
import { taskEtag, TASK_CHANGED, type EtagCondition } from './etag';
import { TASK_NOT_FOUND } from './get';
import { uuidOrNumber } from './locate';
import { loadTasks } from './load';
import { BATCH_PROBLEMS, batchProblem, batchReferenceTables, type BatchProblem } from './references';
import { TASK_COLUMNS, toTask, type Task, type TaskRow } from './shape';
import { stampChange } from './stamp';
import { changedFields, enqueueEvents, eventWanted } from '../webhooks/events';

/** One change of a batch: the fields of an update for the task `id` names, and its If-Match. */
export type TaskChange = Omit<TaskChangeFields, 'ifMatch'> & { ifMatch?: EtagCondition };

const set = (changes: TaskChange[], field: keyof TaskChange) => changes.map((change) => change[field] !== undefined);

/**
 * The statement that applies every change of a batch to its task, or none: it
 * checks the ids every change names and, where all are usable, sets each task's
 * fields that its change sends (the others stay), replaces the lists it sends and
 * stamps them all with the batch's change time. Changes travel as arrays, one
 * element per change with a flag per field, so its text is the same whatever the
 * batch's size and whichever fields each change sends.
 */
function updateBatchStatement(workspaceId: string, project: ProjectRef, changes: TaskChange[], ids: string[], changedAt: Date) {
  return Prisma.sql`
    WITH items AS (
      SELECT * FROM unnest(
        ${ids}::uuid[],
        ${set(changes, 'title')}::boolean[], ${changes.map((change) => change.title ?? null)}::text[],
        ${set(changes, 'description')}::boolean[], ${changes.map((change) => change.description ?? null)}::text[],
        ${set(changes, 'priority')}::boolean[], ${changes.map((change) => change.priority ?? null)}::"Priority"[],
        ${set(changes, 'dueDate')}::boolean[], ${changes.map((change) => change.dueDate ?? null)}::timestamptz[],
        ${changes.map((change) => change.statusId?.toLowerCase() ?? null)}::uuid[],
        ${set(changes, 'assigneeIds')}::boolean[], ${set(changes, 'labelIds')}::boolean[]
      ) WITH ORDINALITY AS i (id, set_title, title, set_description, description, set_priority, priority, set_due_date, due_date,
        status_id, set_assignees, set_labels, item)),
    ${batchReferenceTables(workspaceId, project, changes)},
    updated AS (
      UPDATE task t SET
        title = CASE WHEN i.set_title THEN i.title ELSE t.title END,
        description = CASE WHEN i.set_description THEN i.description ELSE t.description END,
        priority = CASE WHEN i.set_priority THEN i.priority ELSE t.priority END,
        due_date = CASE WHEN i.set_due_date THEN i.due_date ELSE t.due_date END,
        status_id = coalesce(s.id, t.status_id),
        category = coalesce(s.category, t.category),
        updated_at = ${changedAt}::timestamptz
      FROM items i LEFT JOIN status s ON s.project_id = ${project.id}::uuid AND s.id = i.status_id
      WHERE t.id = i.id AND NOT EXISTS (SELECT 1 FROM problems)
        -- A change that sends no field leaves its task as it was, as an update does.
        AND (i.set_title OR i.set_description OR i.set_priority OR i.set_due_date OR i.status_id IS NOT NULL OR i.set_assignees OR i.set_labels)
      RETURNING t.id),
    unassigned AS (
      DELETE FROM task_assignee ta USING updated u JOIN items i ON i.id = u.id
      WHERE i.set_assignees AND ta.task_id = i.id AND NOT EXISTS (SELECT 1 FROM members m WHERE m.item = i.item AND m.id = ta.user_id)),
    assigned AS (
      INSERT INTO task_assignee (task_id, user_id)
      SELECT i.id, m.id FROM updated u JOIN items i ON i.id = u.id JOIN members m ON m.item = i.item WHERE i.set_assignees
      ON CONFLICT DO NOTHING),
    unlabelled AS (
      DELETE FROM task_label tl USING updated u JOIN items i ON i.id = u.id
      WHERE i.set_labels AND tl.task_id = i.id AND NOT EXISTS (SELECT 1 FROM usable_labels l WHERE l.item = i.item AND l.id = tl.label_id)),
    labelled AS (
      INSERT INTO task_label (task_id, label_id)
      SELECT i.id, l.id FROM updated u JOIN items i ON i.id = u.id JOIN usable_labels l ON l.item = i.item WHERE i.set_labels
      ON CONFLICT DO NOTHING)
    SELECT
      ${BATCH_PROBLEMS},
      ${eventWanted(project.id, 'task.updated')} AS event_wanted`;
}

/**
 * Applies up to a batch of changes in one transaction, all or none, in a constant
 * number of statements whatever their number: the project's change stamp (which
 * locks its row, as every write does, stamp.ts), a locked read of every task the
 * changes name, the statement above, a read of them all as they are now, and (when
 * an endpoint wants them) one `task.updated` event per task that changed, in two.
 * Refused whole, naming the first item at fault: a task not found (404), one named
 * twice (400), an If-Match the task no longer passes (412), a bad id (400).
 */
export async function updateTasks(
  db: Db,
  workspaceId: string,
  project: ProjectRef,
  changes: TaskChange[],
  inTransaction?: InTransaction<{ tasks: Task[] }>,
): Promise<{ tasks: Task[] }> {
  const keys = changes.map((change) => uuidOrNumber(project, change.id));
  const uuids = keys.flatMap((key) => (key && 'id' in key ? [key.id] : []));
  const numbers = keys.flatMap((key) => (key && 'number' in key ? [key.number] : []));
  return db.$transaction(async (tx) => {
    const changedAt = await stampChange(tx, project.id);
    const found = await tx.$queryRaw<TaskRow[]>`
      SELECT ${TASK_COLUMNS} FROM task t
      WHERE t.project_id = ${project.id}::uuid AND (t.id = ANY(${uuids}::uuid[]) OR t.number = ANY(${numbers}::int[]))
      FOR UPDATE OF t`;
    const before = beforeChanges(project, changes, keys, found);
    const ids = before.map((task) => task.id);
    const [row] = await tx.$queryRaw<{ problems: BatchProblem[]; event_wanted: boolean }[]>(
      updateBatchStatement(workspaceId, project, changes, ids, changedAt),
    );
    const refused = batchProblem(project, row!.problems);
    if (refused) throw refused;
    const tasks = (await loadTasks(tx, ids)).map((task) => toTask(task, project.keyPrefix));
    if (row!.event_wanted) {
      const events = tasks.flatMap((task, index) => {
        const changed = changedFields(before[index]!, task);
        return changed.length > 0 ? [{ task, changes: changed }] : [];
      });
      if (events.length > 0) await enqueueEvents(tx, project, 'task.updated', async () => events);
    }
    const result = { tasks };
    await inTransaction?.(tx, result);
    return result;
  });
}

/** Each change's task as it is before the batch, in the changes' order, or why the batch cannot be applied. */
function beforeChanges(project: ProjectRef, changes: TaskChange[], keys: ReturnType<typeof uuidOrNumber>[], found: TaskRow[]): Task[] {
  const byId = new Map(found.map((row) => [row.id, row]));
  const byNumber = new Map(found.map((row) => [row.number, row]));
  const itemOf = new Map<string, number>();
  return changes.map((change, item) => {
    const key = keys[item];
    const row = key && ('id' in key ? byId.get(key.id) : byNumber.get(key.number));
    if (!row) throw notFound(`tasks[${item}].id: ${TASK_NOT_FOUND}`);
    const first = itemOf.get(row.id);
    if (first !== undefined) throw badRequest(`tasks[${item}].id: names the same task as tasks[${first}]`);
    itemOf.set(row.id, item);
    const task = toTask(row, project.keyPrefix);
    if (change.ifMatch && !change.ifMatch(taskEtag(task)))
      throw new AppError('precondition_failed', `tasks[${item}].ifMatch: ${TASK_CHANGED}`);
    return task;
  });
}
