import { hash } from 'node:crypto';
import type { Prisma } from '../db/generated/client';
import { AppError, notFound } from '../errors';
import type { ProjectRef } from '../projects/types';
import { TASK_NOT_FOUND } from './get';
import { loadTaskForUpdate } from './load';
import { toTask, type Task, type TaskRow } from './shape';

export const TASK_CHANGED = 'Task was changed since you read it (ETag mismatch)';

/** Whether a request's If-Match accepts a task whose entity tag is this one (server/api/conditional.ts). */
export type EtagCondition = (etag: string) => boolean;

/**
 * The strong entity tag of a task: a hash of the task exactly as it is answered,
 * so it changes with anything the answer shows, its status's name and colour, its
 * labels, assignees' names and attachments included, and only then.
 */
export function taskEtag(task: Task): string {
  return etagOfTaskJson(JSON.stringify(task));
}

/** The same tag from the task's JSON text as it was sent: what a replayed answer carries. */
export function etagOfTaskJson(json: string): string {
  return `"${hash('sha256', json, 'base64url').slice(0, 32)}"`;
}

/** Throws 412 unless `condition` (absent: no If-Match) accepts the task as it is now. */
export function checkPrecondition(task: Task, condition: EtagCondition | undefined): void {
  if (condition && !condition(taskEtag(task))) throw new AppError('precondition_failed', TASK_CHANGED);
}

/**
 * The task `condition` finds, read whole and locked in the write's transaction,
 * if it passes `ifMatch` (else 404 or 412): the comparison and the write that
 * follows are one step, so of two writes made with one entity tag the second
 * finds the task changed.
 */
export async function lockIfMatch(
  tx: Prisma.TransactionClient,
  project: ProjectRef,
  condition: Prisma.Sql,
  ifMatch: EtagCondition,
): Promise<TaskRow> {
  const row = await loadTaskForUpdate(tx, condition);
  if (!row) throw notFound(TASK_NOT_FOUND);
  checkPrecondition(toTask(row, project.keyPrefix), ifMatch);
  return row;
}
