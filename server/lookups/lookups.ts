import type { ProjectRef } from '../projects/types';
import type { Db } from '../db/client';

export function listStatuses(db: Db, project: ProjectRef) {
  return db.status.findMany({
    where: { projectId: project.id },
    orderBy: [{ order: 'asc' }, { id: 'asc' }],
    select: { id: true, name: true, color: true, category: true, order: true },
  });
}

/** Workspace-wide labels plus the project-scoped labels assigned to this project. */
export function listLabels(db: Db, workspaceId: string, project: ProjectRef) {
  return db.label.findMany({
    where: { workspaceId, OR: [{ scope: 'workspace' }, { projects: { some: { projectId: project.id } } }] },
    orderBy: [{ name: 'asc' }, { id: 'asc' }],
    select: { id: true, name: true, color: true },
  });
}

export async function listMembers(db: Db, workspaceId: string) {
  const rows = await db.membership.findMany({
    where: { workspaceId },
    orderBy: [{ user: { name: 'asc' } }, { userId: 'asc' }],
    select: { user: { select: { id: true, name: true, email: true } } },
  });
  return rows.map((row) => row.user);
}
