import type { ProjectRef } from '../projects/types';
import type { Db } from '../db/client';
import type { StatusCategory } from '../db/generated/enums';
import { badRequest } from '../errors';

interface References {
  statusId?: string;
  assigneeIds?: string[];
  labelIds?: string[];
}

/**
 * Checks in one round of queries that every id a create or update names is
 * usable in this project: a status of the project, members of the workspace,
 * labels available here. Answers 400 naming the first offending id.
 */
export async function checkReferences(db: Db, workspaceId: string, project: ProjectRef, refs: References) {
  const [status, members, labels] = await Promise.all([
    refs.statusId
      ? db.status.findFirst({ where: { id: refs.statusId.toLowerCase(), projectId: project.id }, select: { id: true, category: true } })
      : null,
    refs.assigneeIds?.length
      ? db.membership.findMany({ where: { workspaceId, userId: { in: refs.assigneeIds } }, select: { userId: true } })
      : [],
    refs.labelIds?.length
      ? db.label.findMany({
          where: {
            id: { in: refs.labelIds },
            workspaceId,
            OR: [{ scope: 'workspace' }, { projects: { some: { projectId: project.id } } }],
          },
          select: { id: true },
        })
      : [],
  ]);
  if (refs.statusId && !status) throw badRequest(`statusId: ${refs.statusId} is not a status of project ${project.slug}`);
  const memberIds = new Set(members.map((m) => m.userId));
  const stranger = refs.assigneeIds?.find((id) => !memberIds.has(id));
  if (stranger) throw badRequest(`assigneeIds: ${stranger} is not a member of this workspace`);
  const labelIds = new Set(labels.map((l) => l.id));
  const unavailable = refs.labelIds?.find((id) => !labelIds.has(id));
  if (unavailable) throw badRequest(`labelIds: ${unavailable} is not a label available in project ${project.slug}`);
  return { status: status as { id: string; category: StatusCategory } | null };
}
