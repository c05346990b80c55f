import type { Prisma } from '../db/generated/client';
import { NEXT_CHANGE_TIME } from './stamp';

/**
 * Hands out the project's next task number inside the caller's transaction, with
 * the new task's change time (stamp.ts) in the same statement. The row lock on the
 * project serialises concurrent creates, and the counter only grows, so numbers are
 * distinct, consecutive and never reused after a delete.
 */
export async function nextTaskNumber(tx: Prisma.TransactionClient, projectId: string): Promise<{ number: number; changedAt: Date }> {
  const [row] = await tx.$queryRaw<{ task_counter: number; changed_at: Date }[]>`
    UPDATE project p
    SET task_counter = p.task_counter + 1, changed_at = ${NEXT_CHANGE_TIME}
    WHERE p.id = ${projectId}::uuid RETURNING p.task_counter, p.changed_at`;
  if (!row) throw new Error(`Project ${projectId} vanished while creating a task`);
  return { number: row.task_counter, changedAt: row.changed_at };
}
