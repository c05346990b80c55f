import type { ApiPrincipal } from '../auth/api-key';
import type { ProjectRef } from '../projects/types';
import type { Db } from '../db/client';
import type { InTransaction } from '../db/transaction';
import { findTaskId } from '../tasks/get';
import { enqueueEvent } from '../webhooks/events';

const commentSelect = { id: true, content: true, authorName: true, createdAt: true, updatedAt: true } as const;

function toComment(row: { id: string; content: string; authorName: string | null; createdAt: Date; updatedAt: Date }) {
  return { ...row, createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString() };
}

export async function listComments(db: Db, project: ProjectRef, taskId: string) {
  const id = await findTaskId(db, project, taskId);
  const rows = await db.comment.findMany({
    where: { taskId: id },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    select: commentSelect,
  });
  return rows.map(toComment);
}

/** A comment posted through the API is attributed to the key's name as it is now. */
export async function addComment(
  db: Db,
  principal: ApiPrincipal,
  project: ProjectRef,
  taskId: string,
  content: string,
  inTransaction?: InTransaction<ReturnType<typeof toComment>>,
) {
  const id = await findTaskId(db, project, taskId);
  return db.$transaction(async (tx) => {
    const row = await tx.comment.create({
      data: { taskId: id, content, authorApiKeyId: principal.keyId, authorName: principal.keyName },
      select: { ...commentSelect, task: { select: { number: true } } },
    });
    const { task, ...fields } = row;
    const comment = toComment(fields);
    await enqueueEvent(tx, project, 'comment.created', { comment, task: { id, externalId: `${project.keyPrefix}-${task.number}` } });
    await inTransaction?.(tx, comment);
    return comment;
  });
}
