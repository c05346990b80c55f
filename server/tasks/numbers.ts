import type { Prisma } from '../db/generated/client';

/**
 * Hands out the project's next task number inside the caller's transaction. The
 * row lock on the project serialises concurrent creates, and the counter only
 * grows, so numbers are distinct, consecutive and never reused after a delete.
 */
export async function nextTaskNumber(tx: Prisma.TransactionClient, projectId: string): Promise<number> {
  const [row] = await tx.$queryRaw<{ task_counter: number }[]>`
    UPDATE project SET task_counter = task_counter + 1 WHERE id = ${projectId}::uuid RETURNING task_counter`;
  if (!row) throw new Error(`Project ${projectId} vanished while creating a task`);
  return row.task_counter;
}
