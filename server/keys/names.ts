import type { Db } from '../db/client';

export interface PrincipalName {
  id: string;
  name: string;
  kind: 'key' | 'app';
}

/** The names of these keys and apps of the workspace, in one statement: a report names what it counted. */
export async function principalNames(db: Db, workspaceId: string, ids: string[]): Promise<PrincipalName[]> {
  const rows = await db.apiKey.findMany({
    where: { workspaceId, id: { in: ids } },
    select: { id: true, name: true, grant: { select: { id: true } } },
  });
  return rows.map((row) => ({ id: row.id, name: row.name, kind: row.grant ? 'app' : 'key' }));
}
