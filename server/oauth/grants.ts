import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { AuditContext } from '../audit/context';
import { auditStatement, changesOf, knownSource, noteStreamed, recordAudit } from '../audit/record';
import type { Db } from '../db/client';
import { notFound, nullIfMissing } from '../errors';
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

export async function createGrant(db: Db, input: GrantInput, audit: AuditContext): Promise<string> {
  if (input.projectId) {
    const project = await db.project.findFirst({ where: { id: input.projectId, workspaceId: input.workspaceId }, select: { id: true } });
    if (!project) throw notFound(PROJECT_NOT_FOUND);
  }
  const id = randomUUID();
  const name = input.appName.slice(0, APP_NAME_MAX);
  const scopes = SCOPES.filter((scope) => input.scopes.includes(scope));
  const target = { type: 'oauth_app' as const, id, name };
  const [, , recorded] = await db.$transaction([
    db.apiKey.create({
      data: {
        id,
        workspaceId: input.workspaceId,
        name,
        hint: GRANT_HINT,
        scopes,
        projectId: input.projectId,
        createdById: input.approvedById,
      },
    }),
    db.oauthGrant.create({ data: { id, clientId: input.clientId, approvedById: input.approvedById } }),
    auditStatement(db, knownSource(input.workspaceId, audit, target), audit, {
      action: 'oauth_app.connected',
      targetType: 'oauth_app',
      changes: changesOf(null, { name, scopes, projectId: input.projectId }),
    }),
  ]);
  noteStreamed(recorded);
  return id;
}

/**
 * A grant the consent did not complete (the library refused the request): nothing may
 * use it, and the log forgets its connection with the deliveries of that event not yet sent.
 */
export async function discardGrant(db: Db, id: string): Promise<void> {
  await db.$transaction([
    db.$executeRaw`
      WITH forgotten AS (
        DELETE FROM audit_event WHERE target_id = ${id} AND action = 'oauth_app.connected'
        RETURNING id::text, workspace_id)
      DELETE FROM webhook_delivery d USING webhook_endpoint e, forgotten f
      WHERE e.workspace_id = f.workspace_id AND d.endpoint_id = e.id AND d.status = 'pending'
        AND d.event_type = 'audit.event' AND d.created_at > now() - interval '1 hour'
        AND d.payload::jsonb #>> '{data,event,id}' = f.id`,
    db.apiKey.delete({ where: { id } }),
  ]);
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

/** One connected app of the workspace; a key or another workspace's app is not found. */
export async function findGrant(db: Db, workspaceId: string, id: string) {
  if (!z.uuid().safeParse(id).success) throw notFound(GRANT_NOT_FOUND);
  const grant = await db.apiKey.findFirst({ where: { id, workspaceId, grant: { isNot: null } }, select: grantView });
  if (!grant) throw notFound(GRANT_NOT_FOUND);
  return toGrant(grant);
}

/**
 * Revoked at once everywhere: every request with one of its access tokens reads the
 * grant's row (access-token.ts), and its refresh tokens go with it.
 */
export async function revokeGrant(db: Db, workspaceId: string, id: string, audit: AuditContext) {
  if (!z.uuid().safeParse(id).success) throw notFound(GRANT_NOT_FOUND);
  const existing = await db.apiKey.findFirst({ where: { id, workspaceId, grant: { isNot: null } }, select: { id: true } });
  if (!existing) throw notFound(GRANT_NOT_FOUND);
  const now = new Date();
  const grant = await nullIfMissing(
    db.$transaction(async (tx) => {
      // Only the revocation that finds the grant active records it: revoking twice records once.
      const revoked = await tx.apiKey.update({ where: { id, revokedAt: null }, data: { revokedAt: now }, select: grantView });
      await tx.oauthRefreshToken.updateMany({ where: { referenceId: id, revoked: null }, data: { revoked: now } });
      await tx.oauthAccessToken.updateMany({ where: { referenceId: id, revoked: null }, data: { revoked: now } });
      await recordAudit(tx, workspaceId, audit, { action: 'oauth_app.revoked', target: { type: 'oauth_app', id, name: revoked.name } });
      return revoked;
    }),
  );
  // Revoked already: its tokens went with it then.
  return toGrant(grant ?? (await db.apiKey.findUniqueOrThrow({ where: { id }, select: grantView })));
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
