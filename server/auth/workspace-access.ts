import type { Db } from '../db/client';
import type { Role } from '../db/generated/enums';

export interface WorkspaceAccess {
  workspace: { id: string; slug: string; name: string };
  role: Role;
}

/** Members may use a workspace; only its owners and admins issue and revoke its keys. */
export function canManageKeys(role: Role): boolean {
  return role === 'owner' || role === 'admin';
}

/** The workspaces a user belongs to, by name, for the workspace picker. */
export async function userWorkspaces(db: Db, userId: string): Promise<WorkspaceAccess[]> {
  const memberships = await db.membership.findMany({
    where: { userId },
    select: { role: true, workspace: { select: { id: true, slug: true, name: true } } },
    orderBy: [{ workspace: { name: 'asc' } }, { workspace: { slug: 'asc' } }],
  });
  return memberships.map(({ workspace, role }) => ({ workspace, role }));
}

/** The user's role in the workspace with this slug, or null when they are not a member. */
export async function workspaceAccess(db: Db, userId: string, slug: string): Promise<WorkspaceAccess | null> {
  const membership = await db.membership.findFirst({
    where: { userId, workspace: { slug } },
    select: { role: true, workspace: { select: { id: true, slug: true, name: true } } },
  });
  return membership && { workspace: membership.workspace, role: membership.role };
}
