import { z } from 'zod';
import type { Db } from '../db/client';
import { storableText } from '../db/storable';
import type { Prisma } from '../db/generated/client';
import { conflict, isUniqueViolation, notFound } from '../errors';

export const slugSchema = z
  .string()
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'must be lowercase letters, digits and single dashes')
  .max(60, 'must be at most 60 characters');

export const nameSchema = storableText().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters');

export async function createWorkspace(db: Db | Prisma.TransactionClient, input: { slug: string; name: string }) {
  try {
    return await db.workspace.create({ data: input });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(`Workspace ${input.slug} already exists`);
    throw error;
  }
}

export async function findWorkspace(db: Db, slug: string) {
  const workspace = await db.workspace.findUnique({ where: { slug } });
  if (!workspace) throw notFound(`Workspace ${slug} not found`);
  return workspace;
}
