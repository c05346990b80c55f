import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Db } from '../db/client';
import type { Prisma } from '../db/generated/client';
import type { Role } from '../db/generated/enums';
import { conflict } from '../errors';

export const ROLES = ['owner', 'admin', 'member'] as const satisfies readonly Role[];
export const emailSchema = z.email('must be an email address').transform((email) => email.toLowerCase());
export const passwordSchema = z.string().min(8, 'must be at least 8 characters').max(128, 'must be at most 128 characters');

interface AddMemberInput {
  workspaceId: string;
  email: string;
  name: string;
  role: Role;
  password?: string;
}

/**
 * Adds a user to a workspace, creating the user on first sight. A password
 * becomes a sign-in credential in the shape the settings page's auth library reads.
 * Given a transaction, it joins it, so a caller can add the member atomically with its own writes.
 */
export async function addMember(db: Db | Prisma.TransactionClient, input: AddMemberInput) {
  // Loaded on demand: the hashing library is large and most callers never need it.
  const passwordHash =
    input.password === undefined ? undefined : await (await import('better-auth/crypto')).hashPassword(input.password);
  const work = async (tx: Prisma.TransactionClient) => {
    const user = await tx.user.upsert({
      where: { email: input.email },
      create: { email: input.email, name: input.name },
      update: {},
    });
    const existing = await tx.membership.findUnique({
      where: { workspaceId_userId: { workspaceId: input.workspaceId, userId: user.id } },
    });
    if (existing) throw conflict(`${input.email} is already a member of this workspace`);
    const membership = await tx.membership.create({
      data: { workspaceId: input.workspaceId, userId: user.id, role: input.role },
    });
    if (passwordHash) {
      await tx.account.upsert({
        where: { providerId_accountId: { providerId: 'credential', accountId: user.id } },
        create: { id: randomUUID(), providerId: 'credential', accountId: user.id, userId: user.id, password: passwordHash },
        update: { password: passwordHash },
      });
    }
    return { id: user.id, name: user.name, email: user.email, role: membership.role, workspaceId: input.workspaceId };
  };
  return '$transaction' in db ? db.$transaction(work) : work(db);
}
