import { z } from 'zod';
import type { ProjectRef } from '../api/access';
import type { Prisma } from '../db/generated/client';

const MAX_INT4 = 2_147_483_647;

/**
 * The condition that finds `taskId` in `project`: a UUID, or an external ID
 * matched case-insensitively (`web-12` is `WEB-12`). Null when it can name no
 * task of this project, so the caller answers 404 without a query.
 */
export function taskWhere(project: ProjectRef, taskId: string): Prisma.TaskWhereUniqueInput | null {
  if (z.uuid().safeParse(taskId).success) return { id: taskId.toLowerCase(), projectId: project.id };
  const number = externalIdNumber(project, taskId);
  return number === null ? null : { projectId_number: { projectId: project.id, number } };
}

/** The task number in an external ID of this project, e.g. 12 for `web-12` in WEB. */
export function externalIdNumber(project: ProjectRef, text: string): number | null {
  const match = /^\s*([A-Za-z][A-Za-z0-9]*)-(\d{1,10})\s*$/.exec(text);
  if (!match || match[1]?.toUpperCase() !== project.keyPrefix) return null;
  const number = Number(match[2]);
  return number >= 1 && number <= MAX_INT4 ? number : null;
}
