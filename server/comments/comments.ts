import { randomUUID } from 'node:crypto';
import type { ApiPrincipal } from '../auth/api-key';
import type { ProjectRef } from '../projects/types';
import type { Db } from '../db/client';
import type { InTransaction } from '../db/transaction';
import { Prisma } from '../db/generated/client';
import { conflict, notFound } from '../errors';
import { MAX_COMMENTS_PER_TASK } from '../schemas/comment';
import { TASK_NOT_FOUND } from '../tasks/get';
import { taskCondition } from '../tasks/locate';
import { announcedWrite } from '../webhooks/announced-write';
import { enqueueEvent, eventWanted } from '../webhooks/events';

export const TOO_MANY_COMMENTS = `Task already has ${MAX_COMMENTS_PER_TASK} comments, the most a task may have`;

const commentSelect = { id: true, content: true, authorName: true, createdAt: true, updatedAt: true } as const;

export type CommentRow = { id: string; content: string; authorName: string | null; createdAt: Date; updatedAt: Date };

export function toComment(row: CommentRow) {
  return { ...row, createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString() };
}

/**
 * A task's comments, oldest first. The statement that finds the task also sums
 * the size of their text, for which the answer waits for room (`reserveMemory`)
 * before the comments are read.
 */
export async function listComments(db: Db, project: ProjectRef, taskId: string, reserveMemory: (bytes: number) => Promise<void>) {
  const condition = taskCondition(project, taskId);
  const [task] = condition
    ? await db.$queryRaw<{ id: string; bytes: bigint }[]>`
        SELECT t.id::text, (SELECT coalesce(sum(octet_length(c.content)), 0) FROM comment c WHERE c.task_id = t.id) AS bytes
        FROM task t WHERE ${condition}`
    : [];
  if (!task) throw notFound(TASK_NOT_FOUND);
  await reserveMemory(Number(task.bytes));
  const rows = await db.comment.findMany({
    where: { taskId: task.id },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    select: commentSelect,
  });
  return rows.map(toComment);
}

type AddedRow = { task_id: string | null; number: number | null; at_limit: boolean | null; event_wanted: boolean } & Partial<CommentRow>;

/**
 * The statement that finds the task and adds the comment, unless the task has all
 * the comments it may have; with `alone`, only if no endpoint wants the event, which
 * then needs a transaction. The benchmark's floor sends it too. (Comments posted at
 * the same moment each count those committed before: together they may pass the
 * limit by as many as they are.)
 */
export function addCommentStatement(
  principal: Pick<ApiPrincipal, 'keyId' | 'keyName'>,
  project: ProjectRef,
  condition: Prisma.Sql,
  content: string,
  alone: boolean,
): Prisma.Sql {
  return Prisma.sql`
      WITH target AS (
        SELECT t.id, t.number, (SELECT count(*) FROM comment c WHERE c.task_id = t.id) >= ${MAX_COMMENTS_PER_TASK} AS at_limit
        FROM task t WHERE ${condition} LIMIT 1),
      wanted AS (SELECT ${eventWanted(project.id, 'comment.created')} AS yes),
      added AS (
        INSERT INTO comment (id, task_id, content, author_api_key_id, author_name, created_at, updated_at)
        SELECT ${randomUUID()}::uuid, target.id, ${content}, ${principal.keyId}::uuid, ${principal.keyName}, now(), now()
        FROM target WHERE NOT target.at_limit AND NOT (${alone} AND (SELECT yes FROM wanted))
        RETURNING id::text, content, author_name AS "authorName", created_at AS "createdAt", updated_at AS "updatedAt")
      SELECT (SELECT id::text FROM target) AS task_id, (SELECT number FROM target) AS number, (SELECT at_limit FROM target) AS at_limit,
        (SELECT yes FROM wanted) AS event_wanted, added.*
      FROM (SELECT 1) AS one LEFT JOIN added ON true`;
}

/**
 * A comment posted through the API is attributed to the key's name as it is now.
 * One statement finds the task and adds the comment (announced-write.ts).
 */
export async function addComment(
  db: Db,
  principal: ApiPrincipal,
  project: ProjectRef,
  taskId: string,
  content: string,
  inTransaction?: InTransaction<ReturnType<typeof toComment>>,
) {
  const condition = taskCondition(project, taskId);
  if (!condition) throw notFound(TASK_NOT_FOUND);
  return announcedWrite(
    db,
    {
      async write(runner, alone) {
        const [row] = await runner.$queryRaw<AddedRow[]>(addCommentStatement(principal, project, condition, content, alone));
        const { task_id: id, number, at_limit: full, event_wanted: wanted, ...added } = row!;
        if (!id) throw notFound(TASK_NOT_FOUND);
        if (full) throw conflict(TOO_MANY_COMMENTS);
        const task = { id, externalId: `${project.keyPrefix}-${number}` };
        return { wanted, row: added.id ? { comment: toComment(added as CommentRow), task } : null };
      },
      announce: (tx, created) => enqueueEvent(tx, project, 'comment.created', created),
      answer: ({ comment }) => comment,
    },
    inTransaction,
  );
}
