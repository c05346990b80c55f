import type { ApiPrincipal } from '../auth/api-key';
import type { ProjectRef } from '../projects/types';
import type { Db } from '../db/client';
import type { Prisma } from '../db/generated/client';
import type { InTransaction } from '../db/transaction';
import { findTaskId } from '../tasks/get';

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
  const write = async (tx: Prisma.TransactionClient) => {
    const row = await tx.comment.create({
      data: { taskId: id, content, authorApiKeyId: principal.keyId, authorName: principal.keyName },
      select: commentSelect,
    });
    const comment = toComment(row);
    await inTransaction?.(tx, comment);
    return comment;
  };
  // One statement needs no transaction of its own unless work is added to it.
  return inTransaction ? db.$transaction(write) : write(db);
}
