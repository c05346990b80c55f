import { z } from 'zod';
import type { ProjectRef } from '../projects/types';
import { Prisma } from '../db/generated/client';

const MAX_INT4 = 2_147_483_647;
// z.uuid()'s own pattern, tested directly: a failed safeParse builds an error to throw
// away, and every task named by its external ID (`WEB-12`) fails it.
const UUID = z.regexes.uuid();

type TaskKey = { id: string } | { number: number };

/**
 * What `taskId` names in `project`: a UUID, or an external ID matched
 * case-insensitively (`web-12` is `WEB-12`). Null when it can name no task of
 * this project, so the caller answers 404 without a query.
 */
export function uuidOrNumber(project: ProjectRef, taskId: string): TaskKey | null {
  if (UUID.test(taskId)) return { id: taskId.toLowerCase() };
  const number = externalIdNumber(project, taskId);
  return number === null ? null : { number };
}

/** The Prisma condition that finds `taskId` in `project`, or null as for taskKey. */
export function taskWhere(project: ProjectRef, taskId: string): Prisma.TaskWhereUniqueInput | null {
  const key = uuidOrNumber(project, taskId);
  if (!key) return null;
  return 'id' in key ? { id: key.id, projectId: project.id } : { projectId_number: { projectId: project.id, number: key.number } };
}

/** The same condition in SQL, on a task aliased `t`. */
export function taskCondition(project: ProjectRef, taskId: string): Prisma.Sql | null {
  const key = uuidOrNumber(project, taskId);
  if (!key) return null;
  const match = 'id' in key ? Prisma.sql`t.id = ${key.id}::uuid` : Prisma.sql`t.number = ${key.number}`;
  return Prisma.sql`t.project_id = ${project.id}::uuid AND ${match}`;
}

/** The task number in an external ID of this project, e.g. 12 for `web-12` in WEB. */
export function externalIdNumber(project: ProjectRef, text: string): number | null {
  const match = /^\s*([A-Za-z][A-Za-z0-9]*)-(\d{1,10})\s*$/.exec(text);
  if (!match || match[1]?.toUpperCase() !== project.keyPrefix) return null;
  const number = Number(match[2]);
  return number >= 1 && number <= MAX_INT4 ? number : null;
}
