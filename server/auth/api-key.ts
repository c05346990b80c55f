import type { Db } from '../db/client';
import { hashKey, isWellFormedKey } from '../keys/secret';
import { isScope, type Scope } from '../keys/scopes';

export interface ApiPrincipal {
  keyId: string;
  keyName: string;
  workspaceId: string;
  scopes: Scope[];
  /** Null: every project of the workspace. */
  projectId: string | null;
}

/** The key of a request: `Authorization: Bearer <key>`, else `X-API-Key: <key>`. */
export function readPresentedKey(headers: Headers): string | null {
  const authorization = headers.get('authorization');
  if (authorization) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    return match?.[1] ?? null;
  }
  return headers.get('x-api-key')?.trim() || null;
}

export interface KeyProject {
  id: string;
  slug: string;
  keyPrefix: string;
}

/**
 * The principal of a presented key, or null when the key is malformed, unknown,
 * revoked or expired: callers answer all of these the same way. With it comes
 * the project of the key's workspace named `projectSlug` (null if there is none),
 * read by the same statement: every public request needs both, and one round
 * trip to the database costs less than two.
 */
export async function authenticateKey(
  db: Db,
  presented: string,
  projectSlug = '',
): Promise<{ principal: ApiPrincipal; project: KeyProject | null } | null> {
  if (!isWellFormedKey(presented)) return null;
  const key = await db.apiKey.findUnique({
    where: { keyHash: hashKey(presented) },
    select: {
      id: true,
      name: true,
      workspaceId: true,
      scopes: true,
      projectId: true,
      revokedAt: true,
      expiresAt: true,
      workspace: { select: { projects: { where: { slug: projectSlug }, select: { id: true, slug: true, keyPrefix: true } } } },
    },
  });
  if (!key || key.revokedAt || (key.expiresAt && key.expiresAt <= new Date())) return null;
  return {
    principal: {
      keyId: key.id,
      keyName: key.name,
      workspaceId: key.workspaceId,
      scopes: key.scopes.filter(isScope),
      projectId: key.projectId,
    },
    // Slugs are unique within a workspace: at most one.
    project: key.workspace.projects[0] ?? null,
  };
}
