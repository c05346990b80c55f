import { randomUUID } from 'node:crypto';
import { Prisma } from '../db/generated/client';
import type { ProjectRef } from '../projects/types';
import type { CreateTaskFields } from '../schemas/task';
import type { Db } from '../db/client';
import type { InTransaction } from '../db/transaction';
import { loadTasks } from './load';
import { BATCH_PROBLEMS, batchProblem, batchReferenceTables, type BatchProblem } from './references';
import { toTask, type Task } from './shape';
import { NEXT_CHANGE_TIME } from './stamp';
import { enqueueEvents, eventWanted } from '../webhooks/events';

/**
 * The statement that creates a batch of tasks, or none: it checks every id every
 * item names, and only where all are usable takes as many numbers as there are
 * items from the project's row (locked until the commit, as a create's) and a
 * change time each, a millisecond apart in the items' order, and inserts the
 * tasks with their assignees and labels. Items travel as arrays, one element per
 * task (their lists as pairs of item and id), so its text is the same whatever
 * the batch's size.
 */
function createBatchStatement(workspaceId: string, project: ProjectRef, inputs: CreateTaskFields[], ids: string[]): Prisma.Sql {
  const count = inputs.length;
  return Prisma.sql`
    WITH items AS (
      SELECT * FROM unnest(
        ${ids}::uuid[], ${inputs.map((input) => input.title)}::text[], ${inputs.map((input) => input.description ?? null)}::text[],
        ${inputs.map((input) => input.priority ?? 'none')}::"Priority"[], ${inputs.map((input) => input.dueDate ?? null)}::timestamptz[],
        ${inputs.map((input) => input.statusId?.toLowerCase() ?? null)}::uuid[]
      ) WITH ORDINALITY AS i (id, title, description, priority, due_date, status_id, item)),
    default_status AS (
      SELECT s.id, s.category FROM status s WHERE s.project_id = ${project.id}::uuid AND s.category = 'todo'
      ORDER BY s.display_order, s.id LIMIT 1),
    ${batchReferenceTables(workspaceId, project, inputs)},
    numbered AS (
      UPDATE project p
      SET task_counter = p.task_counter + ${count}, changed_at = ${NEXT_CHANGE_TIME} + ${count - 1} * interval '1 millisecond'
      WHERE p.id = ${project.id}::uuid AND NOT EXISTS (SELECT 1 FROM problems)
      RETURNING p.task_counter, p.changed_at),
    created AS (
      INSERT INTO task (id, project_id, number, created_at, updated_at, title, description, priority, due_date, status_id, category)
      SELECT i.id, ${project.id}::uuid, n.task_counter - ${count} + i.item,
        n.changed_at - (${count} - i.item) * interval '1 millisecond', n.changed_at - (${count} - i.item) * interval '1 millisecond',
        i.title, i.description, i.priority, i.due_date,
        coalesce(i.status_id, d.id), coalesce(s.category, d.category, 'todo')
      FROM items i CROSS JOIN numbered n
      LEFT JOIN status s ON s.project_id = ${project.id}::uuid AND s.id = i.status_id
      LEFT JOIN default_status d ON i.status_id IS NULL
      RETURNING id),
    assigned AS (
      INSERT INTO task_assignee (task_id, user_id) SELECT i.id, m.id FROM created c JOIN items i ON i.id = c.id JOIN members m ON m.item = i.item),
    labelled AS (
      INSERT INTO task_label (task_id, label_id) SELECT i.id, u.id FROM created c JOIN items i ON i.id = c.id JOIN usable_labels u ON u.item = i.item)
    SELECT
      ${BATCH_PROBLEMS},
      ${eventWanted(project.id, 'task.created')} AS event_wanted`;
}

/**
 * Creates up to a batch of tasks in one transaction, all or none, in a constant
 * number of statements whatever their number: the one above, then one that reads
 * them back whole, then (when an endpoint wants them) their `task.created` events,
 * one per task, in two. A bad id in any item writes nothing and takes no number;
 * the 400 names the first such item and field (`tasks[3].statusId: …`).
 */
export async function createTasks(
  db: Db,
  workspaceId: string,
  project: ProjectRef,
  inputs: CreateTaskFields[],
  inTransaction?: InTransaction<{ tasks: Task[] }>,
): Promise<{ tasks: Task[] }> {
  const ids = inputs.map(() => randomUUID());
  return db.$transaction(async (tx) => {
    const [row] = await tx.$queryRaw<{ problems: BatchProblem[]; event_wanted: boolean }[]>(
      createBatchStatement(workspaceId, project, inputs, ids),
    );
    const refused = batchProblem(project, row!.problems);
    if (refused) throw refused;
    const tasks = (await loadTasks(tx, ids)).map((task) => toTask(task, project.keyPrefix));
    if (row!.event_wanted) await enqueueEvents(tx, project, 'task.created', async () => tasks.map((task) => ({ task })));
    const result = { tasks };
    await inTransaction?.(tx, result);
    return result;
  });
}
