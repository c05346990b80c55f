import { randomUUID } from 'node:crypto';
import { Prisma } from '../db/generated/client';
import type { ProjectRef } from '../projects/types';
import type { CreateTaskFields } from '../schemas/task';
import type { Db } from '../db/client';
import type { InTransaction } from '../db/transaction';
import { FOUND_REFERENCES, referenceProblem, referenceTables, type FoundReferences } from './references';
import { toTask, type TaskRow } from './shape';
import { NEXT_CHANGE_TIME } from './stamp';
import { enqueueEvent, eventWanted } from '../webhooks/events';

type CreatedRow = FoundReferences & { refs_ok: boolean; event_wanted: boolean } & Partial<TaskRow>;

/** The statement that creates the task: the benchmark's floor sends it too. */
export function createStatement(workspaceId: string, project: ProjectRef, input: CreateTaskFields, id: string): Prisma.Sql {
  return Prisma.sql`
      WITH ${referenceTables(workspaceId, project, input, true)},
      numbered AS (
        UPDATE project p
        SET task_counter = p.task_counter + 1, changed_at = ${NEXT_CHANGE_TIME}
        WHERE p.id = ${project.id}::uuid AND (SELECT ok FROM refs_ok)
        RETURNING p.task_counter, p.changed_at),
      created AS (
        INSERT INTO task (id, project_id, number, created_at, updated_at, title, description, priority, due_date, status_id, category)
        SELECT ${id}::uuid, ${project.id}::uuid, n.task_counter, n.changed_at, n.changed_at, ${input.title}, ${input.description ?? null},
          ${input.priority ?? 'none'}::"Priority", ${input.dueDate ?? null}::timestamptz,
          (SELECT id FROM named_status), coalesce((SELECT category FROM named_status), 'todo')
        FROM numbered n
        RETURNING id, number, title, description, category, priority, due_date, created_at, updated_at),
      assigned AS (INSERT INTO task_assignee (task_id, user_id) SELECT c.id, m.id FROM created c, members m),
      labelled AS (INSERT INTO task_label (task_id, label_id) SELECT c.id, l.id FROM created c, labels l)
      SELECT (SELECT ok FROM refs_ok) AS refs_ok, ${FOUND_REFERENCES}, ${eventWanted(project.id, 'task.created')} AS event_wanted,
        c.id::text, c.number, c.title, c.description, c.category::text, c.priority::text, c.due_date, c.created_at, c.updated_at,
        (SELECT jsonb_build_object('id', s.id, 'name', s.name, 'color', s.color, 'category', s.category) FROM named_status s) AS status,
        (SELECT coalesce(jsonb_agg(jsonb_build_object('id', m.id, 'name', m.name) ORDER BY m.name, m.id), '[]') FROM members m) AS assignees,
        (SELECT coalesce(jsonb_agg(jsonb_build_object('id', l.id, 'name', l.name, 'color', l.color) ORDER BY l.name, l.id), '[]') FROM labels l)
          AS labels,
        '[]'::jsonb AS attachments
      FROM (SELECT 1) AS one LEFT JOIN created c ON true`;
}

/**
 * Creates the task in one statement: it checks the ids the input names, takes the
 * project's next number and the change time (stamp.ts) from the project's row, which
 * stays locked until the commit, so parallel creates get distinct, consecutive
 * numbers, inserts the task with its assignees and labels, and reads it back whole.
 * A bad id writes nothing and takes no number. A second statement, in the same
 * transaction, queues the webhook event only when an endpoint wants it.
 */
export async function createTask(
  db: Db,
  workspaceId: string,
  project: ProjectRef,
  input: CreateTaskFields,
  inTransaction?: InTransaction<ReturnType<typeof toTask>>,
) {
  const id = randomUUID();
  return db.$transaction(async (tx) => {
    const [row] = await tx.$queryRaw<CreatedRow[]>(createStatement(workspaceId, project, input, id));
    if (!row!.refs_ok) throw referenceProblem(project, input, row!);
    const task = toTask(row as TaskRow, project.keyPrefix);
    if (row!.event_wanted) await enqueueEvent(tx, project, 'task.created', { task });
    await inTransaction?.(tx, task);
    return task;
  });
}
