import { MAX_MEMBERS_PER_WORKSPACE } from '../schemas/lookups';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { AuditContext } from '../audit/context';
import { recordAudit } from '../audit/record';
import type { Db } from '../db/client';
import type { Prisma } from '../db/generated/client';
import type { Role } from '../db/generated/enums';
import { conflict, notFound } from '../errors';

export const ROLES = ['owner', 'admin', 'member'] as const satisfies readonly Role[];
// RFC 5321's longest path: no longer address can receive mail.
export const emailSchema = z
  .email('must be an email address')
  .max(254, 'must be at most 254 characters')
  .transform((email) => email.toLowerCase());
export const passwordSchema = z.string().min(8, 'must be at least 8 characters').max(128, 'must be at most 128 characters');

export async function userExists(db: Db, email: string): Promise<boolean> {
  return (await db.user.count({ where: { email } })) > 0;
}

interface AddMemberInput {
  workspaceId: string;
  email: string;
  name: string;
  role: Role;
  password?: string;
  /**
   * Replace the password of an existing user and end their sessions; the user must
   * exist. Without it, an existing user's credentials are never touched.
   */
  resetPassword?: boolean;
}

/**
 * Adds a user to a workspace, creating the user on first sight. A password
 * becomes a sign-in credential in the shape the settings page's auth library reads.
 * An existing user keeps their password unless `resetPassword` says otherwise: one
 * workspace's admin must not be able to take over a person's account everywhere.
 * With `resetPassword`, a user who is already a member keeps their membership and role.
 * Given a transaction, it joins it, so a caller can add the member atomically with its own writes.
 * The audit log gets `member.added` for a new membership and `member.password_reset` for a reset;
 * `audit` null leaves the record to a caller whose own event covers the change (the first owner's setup).
 */
export async function addMember(db: Db | Prisma.TransactionClient, input: AddMemberInput, audit: AuditContext | null) {
  // Loaded on demand: the hashing library is large and most callers never need it.
  const passwordHash = input.password === undefined ? undefined : await (await import('better-auth/crypto')).hashPassword(input.password);
  const work = async (tx: Prisma.TransactionClient) => {
    const found = await tx.user.findUnique({ where: { email: input.email } });
    if (input.resetPassword && !found) throw notFound(`No user has the email ${input.email}`);
    if (found && passwordHash && !input.resetPassword) {
      throw conflict(`${input.email} already has an account; its password is replaced only by a password reset`);
    }
    const user = found ?? (await tx.user.create({ data: { email: input.email, name: input.name } }));
    const existing = await tx.membership.findUnique({
      where: { workspaceId_userId: { workspaceId: input.workspaceId, userId: user.id } },
    });
    if (existing && !input.resetPassword) throw conflict(`${input.email} is already a member of this workspace`);
    if (!existing) {
      // The workspace's row, locked, makes parallel additions count one after another.
      await tx.$queryRaw`SELECT 1 FROM workspace WHERE id = ${input.workspaceId}::uuid FOR UPDATE`;
      if ((await tx.membership.count({ where: { workspaceId: input.workspaceId } })) >= MAX_MEMBERS_PER_WORKSPACE) {
        throw conflict(`A workspace has at most ${MAX_MEMBERS_PER_WORKSPACE} members`);
      }
    }
    const membership =
      existing ?? (await tx.membership.create({ data: { workspaceId: input.workspaceId, userId: user.id, role: input.role } }));
    const target = { type: 'user' as const, id: user.id, name: user.name };
    if (audit && !existing) {
      await recordAudit(tx, input.workspaceId, audit, { action: 'member.added', target, after: { role: membership.role } });
    }
    let sessionsEnded = 0;
    if (passwordHash) {
      await tx.account.upsert({
        where: { providerId_accountId: { providerId: 'credential', accountId: user.id } },
        create: { id: randomUUID(), providerId: 'credential', accountId: user.id, userId: user.id, password: passwordHash },
        update: { password: passwordHash },
      });
      // Whoever knew the old password may be signed in with it.
      if (input.resetPassword) {
        sessionsEnded = (await tx.session.deleteMany({ where: { userId: user.id } })).count;
        if (audit) await recordAudit(tx, input.workspaceId, audit, { action: 'member.password_reset', target });
      }
    }
    return { id: user.id, name: user.name, email: user.email, role: membership.role, workspaceId: input.workspaceId, sessionsEnded };
  };
  return '$transaction' in db ? db.$transaction(work) : work(db);
}

/**
 * Takes a user out of a workspace. Their sessions end when no workspace is left to
 * them; the user row stays, with their comments and assignments. A workspace keeps
 * at least one owner.
 */
export async function removeMember(db: Db, input: { workspaceId: string; email: string }, audit: AuditContext) {
  return db.$transaction(async (tx) => {
    const user = await tx.user.findUnique({ where: { email: input.email } });
    const key = user && { workspaceId_userId: { workspaceId: input.workspaceId, userId: user.id } };
    const membership = key && (await tx.membership.findUnique({ where: key }));
    if (!user || !key || !membership) throw notFound(`${input.email} is not a member of this workspace`);
    if (membership.role === 'owner' && (await tx.membership.count({ where: { workspaceId: input.workspaceId, role: 'owner' } })) === 1) {
      throw conflict(`${input.email} is the only owner of this workspace; add another owner first`);
    }
    await tx.membership.delete({ where: key });
    await recordAudit(tx, input.workspaceId, audit, {
      action: 'member.removed',
      target: { type: 'user', id: user.id, name: user.name },
      before: { role: membership.role },
    });
    const remaining = await tx.membership.count({ where: { userId: user.id } });
    const sessionsEnded = remaining === 0 ? (await tx.session.deleteMany({ where: { userId: user.id } })).count : 0;
    return { id: user.id, email: user.email, role: membership.role, workspaceId: input.workspaceId, sessionsEnded };
  });
}

/**
 * Gives a member another role. A workspace keeps at least one owner; the same role
 * again changes nothing and records nothing.
 */
export async function setMemberRole(db: Db, input: { workspaceId: string; email: string; role: Role }, audit: AuditContext) {
  return db.$transaction(async (tx) => {
    const user = await tx.user.findUnique({ where: { email: input.email } });
    const key = user && { workspaceId_userId: { workspaceId: input.workspaceId, userId: user.id } };
    // Locked: two changes at once see each other's outcome, and the last owner cannot be demoted twice over.
    const [membership] = user
      ? await tx.$queryRaw<{ role: Role }[]>`
          SELECT role FROM membership WHERE workspace_id = ${input.workspaceId}::uuid AND user_id = ${user.id}::uuid FOR UPDATE`
      : [];
    if (!user || !key || !membership) throw notFound(`${input.email} is not a member of this workspace`);
    if (membership.role !== input.role) {
      if (membership.role === 'owner' && (await tx.membership.count({ where: { workspaceId: input.workspaceId, role: 'owner' } })) === 1) {
        throw conflict(`${input.email} is the only owner of this workspace; make another member owner first`);
      }
      await tx.membership.update({ where: key, data: { role: input.role } });
      await recordAudit(tx, input.workspaceId, audit, {
        action: 'member.role_changed',
        target: { type: 'user', id: user.id, name: user.name },
        before: { role: membership.role },
        after: { role: input.role },
      });
    }
    return { id: user.id, email: user.email, role: input.role, previousRole: membership.role, workspaceId: input.workspaceId };
  });
}
