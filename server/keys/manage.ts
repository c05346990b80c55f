import { z } from 'zod';
import type { AuditContext } from '../audit/context';
import { recordAudit } from '../audit/record';
import type { Db } from '../db/client';
import { storableText } from '../db/storable';
import { notFound, nullIfMissing } from '../errors';
import { PROJECT_NOT_FOUND } from '../projects/types';
import { SCOPES } from './scopes';
import { generateKeySecret, hashKey, keyHint } from './key-format';

/**
 * Creating, revoking and listing keys: one implementation for the admin CLI and
 * the settings page.
 */

export const futureDate = () => z.date().refine((date) => date.getTime() > Date.now(), 'must be in the future');

export const keyCreateSchema = z.object({
  name: storableText().trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters'),
  scopes: z
    .array(z.enum(SCOPES, { error: `must be one of ${SCOPES.join(', ')}` }))
    .min(1, 'must name at least one scope')
    .transform((scopes) => SCOPES.filter((scope) => scopes.includes(scope))),
  projectId: z.uuid().nullable(),
  expiresAt: futureDate().nullable(),
});
export type KeyCreateInput = z.infer<typeof keyCreateSchema>;

export type KeyState = 'active' | 'expired' | 'revoked';

const keyView = {
  id: true,
  name: true,
  hint: true,
  scopes: true,
  expiresAt: true,
  revokedAt: true,
  lastUsedAt: true,
  createdAt: true,
  project: { select: { id: true, slug: true, name: true } },
  createdBy: { select: { id: true, name: true } },
} as const;

type KeyRow = {
  revokedAt: Date | null;
  expiresAt: Date | null;
};

export function keyState(key: KeyRow, now = new Date()): KeyState {
  if (key.revokedAt) return 'revoked';
  if (key.expiresAt && key.expiresAt <= now) return 'expired';
  return 'active';
}

function withState<T extends KeyRow>(key: T) {
  return { ...key, state: keyState(key) };
}

/** What the audit log keeps of a key: never its secret, hash or hint. */
const audited = (key: { name: string; scopes: string[]; project: { id: string } | null; expiresAt: Date | null }) => ({
  name: key.name,
  scopes: key.scopes,
  projectId: key.project?.id ?? null,
  expiresAt: key.expiresAt,
});

export async function createApiKey(db: Db, workspaceId: string, input: KeyCreateInput, createdById: string | null, audit: AuditContext) {
  if (input.projectId) {
    const project = await db.project.findFirst({ where: { id: input.projectId, workspaceId }, select: { id: true } });
    if (!project) throw notFound(PROJECT_NOT_FOUND);
  }
  const secret = generateKeySecret();
  const key = await db.$transaction(async (tx) => {
    const created = await tx.apiKey.create({
      data: {
        workspaceId,
        name: input.name,
        scopes: input.scopes,
        projectId: input.projectId,
        expiresAt: input.expiresAt,
        createdById,
        keyHash: hashKey(secret),
        hint: keyHint(secret),
      },
      select: keyView,
    });
    await recordAudit(tx, workspaceId, audit, {
      action: 'api_key.created',
      target: { type: 'api_key', id: created.id, name: created.name },
      after: audited(created),
    });
    return created;
  });
  return { ...withState(key), key: secret };
}

/** Revoking a revoked key changes nothing, and records nothing. */
export async function revokeApiKey(db: Db, workspaceId: string, id: string, audit: AuditContext) {
  if (!z.uuid().safeParse(id).success) throw notFound('API key not found');
  const existing = await db.apiKey.findFirst({ where: { id, workspaceId, grant: null }, select: { id: true, revokedAt: true } });
  if (!existing) throw notFound('API key not found');
  const revoked =
    !existing.revokedAt &&
    (await nullIfMissing(
      db.$transaction(async (tx) => {
        // Only the revocation that finds the key active records it: two at once record one event.
        const key = await tx.apiKey.update({ where: { id, revokedAt: null }, data: { revokedAt: new Date() }, select: keyView });
        await recordAudit(tx, workspaceId, audit, { action: 'api_key.revoked', target: { type: 'api_key', id, name: key.name } });
        return key;
      }),
    ));
  return withState(revoked || (await db.apiKey.findUniqueOrThrow({ where: { id }, select: keyView })));
}

/** One key of the workspace, as the list shows it; an app's grant or another workspace's key is not found. */
export async function findApiKey(db: Db, workspaceId: string, id: string) {
  if (!z.uuid().safeParse(id).success) throw notFound('API key not found');
  const key = await db.apiKey.findFirst({ where: { id, workspaceId, grant: null }, select: keyView });
  if (!key) throw notFound('API key not found');
  return withState(key);
}

export async function listApiKeys(db: Db, workspaceId: string) {
  const keys = await db.apiKey.findMany({
    // Apps' grants have rows here too, as principals of the gate; they are listed as connected apps.
    where: { workspaceId, grant: null },
    orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
    select: keyView,
  });
  return keys.map(withState);
}
