import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Db } from '../db/client';
import { notFound } from '../errors';
import { SCOPES, type Scope } from '../keys/scopes';
import { PROJECT_NOT_FOUND } from '../projects/types';

/**
 * An app's grant: what one person approved on the consent page. Its principal is an
 * api_key row (name: the app's, no key of its own) so the API's gate, rate limit,
 * Idempotency-Keys, comments' authorName and "last used" treat it as a key; the
 * oauth_grant row of the same id says which app and who approved it. One
 * implementation for the settings page and the admin CLI.
 */

/** What the list shows of an app's hint column: grants have no key to hint at. */
const GRANT_HINT = 'OAuth app';
const APP_NAME_MAX = 100;

export interface GrantInput {
  workspaceId: string;
  clientId: string;
  appName: string;
  scopes: Scope[];
  projectId: string | null;
  approvedById: string;
}

export async function createGrant(db: Db, input: GrantInput): Promise<string> {
  if (input.projectId) {
    const project = await db.project.findFirst({ where: { id: input.projectId, workspaceId: input.workspaceId }, select: { id: true } });
    if (!project) throw notFound(PROJECT_NOT_FOUND);
  }
  const id = randomUUID();
  await db.$transaction([
    db.apiKey.create({
      data: {
        id,
        workspaceId: input.workspaceId,
        name: input.appName.slice(0, APP_NAME_MAX),
        hint: GRANT_HINT,
        scopes: SCOPES.filter((scope) => input.scopes.includes(scope)),
        projectId: input.projectId,
        createdById: input.approvedById,
      },
    }),
    db.oauthGrant.create({ data: { id, clientId: input.clientId, approvedById: input.approvedById } }),
  ]);
  return id;
}

/** A grant the consent did not complete (the library refused the request): nothing may use it. */
export async function discardGrant(db: Db, id: string): Promise<void> {
  await db.apiKey.delete({ where: { id } });
}

const grantView = {
  id: true,
  name: true,
  scopes: true,
  revokedAt: true,
  lastUsedAt: true,
  createdAt: true,
  project: { select: { id: true, slug: true, name: true } },
  grant: { select: { clientId: true, approvedBy: { select: { id: true, name: true } } } },
} as const;

export async function listGrants(db: Db, workspaceId: string) {
  const grants = await db.apiKey.findMany({
    where: { workspaceId, grant: { isNot: null } },
    orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
    select: grantView,
  });
  return grants.map(toGrant);
}

/**
 * Revoked at once everywhere: every request with one of its access tokens reads the
 * grant's row (access-token.ts), and its refresh tokens go with it.
 */
export async function revokeGrant(db: Db, workspaceId: string, id: string) {
  if (!z.uuid().safeParse(id).success) throw notFound(GRANT_NOT_FOUND);
  const existing = await db.apiKey.findFirst({ where: { id, workspaceId, grant: { isNot: null } }, select: { revokedAt: true } });
  if (!existing) throw notFound(GRANT_NOT_FOUND);
  const now = new Date();
  const [grant] = await db.$transaction([
    db.apiKey.update({ where: { id }, data: { revokedAt: existing.revokedAt ?? now }, select: grantView }),
    db.oauthRefreshToken.updateMany({ where: { referenceId: id, revoked: null }, data: { revoked: now } }),
    db.oauthAccessToken.updateMany({ where: { referenceId: id, revoked: null }, data: { revoked: now } }),
  ]);
  return toGrant(grant);
}

export const GRANT_NOT_FOUND = 'Connected app not found';

type GrantRow = {
  id: string;
  name: string;
  scopes: string[];
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  createdAt: Date;
  project: { id: string; slug: string; name: string } | null;
  grant: { clientId: string; approvedBy: { id: string; name: string } | null } | null;
};

function toGrant(row: GrantRow) {
  return {
    id: row.id,
    app: row.name,
    clientId: row.grant?.clientId ?? null,
    approvedBy: row.grant?.approvedBy?.name ?? null,
    scopes: row.scopes,
    project: row.project,
    createdAt: row.createdAt,
    lastUsedAt: row.lastUsedAt,
    state: row.revokedAt ? ('revoked' as const) : ('active' as const),
  };
}

export type Grant = ReturnType<typeof toGrant>;
