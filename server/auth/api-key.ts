import type { Db } from '../db/client';
import { hashKey, isWellFormedKey } from '../keys/key-format';
import { isScope, type Scope } from '../keys/scopes';

export interface ApiPrincipal {
  keyId: string;
  keyName: string;
  workspaceId: string;
  scopes: Scope[];
  /** Null: every project of the workspace. */
  projectId: string | null;
  /** An API key, or an app's OAuth grant (server/oauth), whose api_key row has no key of its own. */
  kind: 'key' | 'grant';
  /** When the credential presented stops working: the key's expiry (null: never), or the app's access token's. */
  expiresAt: Date | null;
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

interface KeyRow {
  id: string;
  name: string;
  workspaceId: string;
  scopes: string[];
  projectId: string | null;
  revokedAt: Date | null;
  expiresAt: Date | null;
  /** Slugs are unique within a workspace: at most one. */
  project: KeyProject | null;
}

/**
 * The principal of a presented key, or null when the key is malformed, unknown,
 * revoked or expired: callers answer all of these the same way. With it comes
 * the project of the key's workspace named `projectSlug` (null if there is none),
 * read by the same statement: every public request needs both, and one round
 * trip to the database costs less than two. A revoked or expired key is named to
 * `onRejected`, which the same statement found at no cost of its own.
 */
export async function authenticateKey(
  db: Db,
  presented: string,
  projectSlug = '',
  onRejected?: (keyId: string) => void,
): Promise<{ principal: ApiPrincipal; project: KeyProject | null } | null> {
  if (!isWellFormedKey(presented)) return null;
  // Written out: Prisma's nested select for the project is a LATERAL statement
  // that costs PostgreSQL several times more than this subquery.
  const [key] = await db.$queryRaw<KeyRow[]>`
    SELECT k.id::text, k.name, k.workspace_id::text AS "workspaceId", k.scopes, k.project_id::text AS "projectId",
      k.revoked_at AS "revokedAt", k.expires_at AS "expiresAt",
      (SELECT jsonb_build_object('id', p.id, 'slug', p.slug, 'keyPrefix', p.key_prefix)
         FROM project p WHERE p.workspace_id = k.workspace_id AND p.slug = ${projectSlug}) AS project
    FROM api_key k WHERE k.key_hash = ${hashKey(presented)}`;
  if (!key) return null;
  if (key.revokedAt || (key.expiresAt && key.expiresAt <= new Date())) {
    onRejected?.(key.id);
    return null;
  }
  return {
    principal: {
      keyId: key.id,
      keyName: key.name,
      workspaceId: key.workspaceId,
      scopes: key.scopes.filter(isScope),
      projectId: key.projectId,
      kind: 'key',
      expiresAt: key.expiresAt,
    },
    project: key.project,
  };
}
