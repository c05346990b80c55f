import type { ApiPrincipal, KeyProject } from '../auth/api-key';
import type { Db } from '../db/client';
import { isScope } from '../keys/scopes';
import { ACCESS_TOKEN_PREFIX, hashToken } from './tokens';

/** Which protected resource a request is for: its token must have been issued for it (RFC 8707). */
export type ApiResource = 'mcp' | 'rest';
export const RESOURCE_PATHS: Record<ApiResource, string> = { mcp: '/v1/mcp', rest: '/v1/public' };

const ACCESS_TOKEN_PATTERN = /^tka_[A-Za-z0-9]{32}$/;

export function isAccessToken(presented: string): boolean {
  return presented.startsWith(ACCESS_TOKEN_PREFIX);
}

interface TokenRow {
  id: string;
  name: string;
  workspaceId: string;
  scopes: string[];
  projectId: string | null;
  grantRevokedAt: Date | null;
  tokenRevokedAt: Date | null;
  expiresAt: Date;
  resources: unknown;
  project: KeyProject | null;
}

/**
 * The principal of an OAuth access token: its grant, read with the project `projectSlug`
 * names in the same statement, as a key's is. Null when the token is malformed, unknown,
 * expired or revoked, its grant revoked, or it was issued for another resource. Every
 * request reads the database, so a revoked grant is refused at once on every instance.
 */
export async function authenticateAccessToken(
  db: Db,
  presented: string,
  resource: ApiResource,
  projectSlug = '',
): Promise<{ principal: ApiPrincipal; project: KeyProject | null } | null> {
  if (!ACCESS_TOKEN_PATTERN.test(presented)) return null;
  const [token] = await db.$queryRaw<TokenRow[]>`
    SELECT k.id::text, k.name, k.workspace_id::text AS "workspaceId", k.scopes, k.project_id::text AS "projectId",
      k.revoked_at AS "grantRevokedAt", t.revoked AS "tokenRevokedAt", t.expires_at AS "expiresAt", t.resources,
      (SELECT jsonb_build_object('id', p.id, 'slug', p.slug, 'keyPrefix', p.key_prefix)
         FROM project p WHERE p.workspace_id = k.workspace_id AND p.slug = ${projectSlug}) AS project
    FROM oauth_access_token t JOIN api_key k ON k.id = t.reference_id
    WHERE t.token = ${hashToken(presented.slice(ACCESS_TOKEN_PREFIX.length))}`;
  if (!token || token.grantRevokedAt || token.tokenRevokedAt || token.expiresAt <= new Date()) return null;
  if (!issuedFor(token.resources, resource)) return null;
  return {
    principal: {
      keyId: token.id,
      keyName: token.name,
      workspaceId: token.workspaceId,
      scopes: token.scopes.filter(isScope),
      projectId: token.projectId,
      kind: 'grant',
      expiresAt: token.expiresAt,
    },
    project: token.project,
  };
}

/** A token asked for no resource serves both; one asked for resources serves those alone. */
function issuedFor(resources: unknown, resource: ApiResource): boolean {
  if (!Array.isArray(resources) || resources.length === 0) return true;
  return resources.some((uri) => {
    try {
      return typeof uri === 'string' && new URL(uri).pathname === RESOURCE_PATHS[resource];
    } catch {
      return false;
    }
  });
}
