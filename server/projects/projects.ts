import { z } from 'zod';
import type { Db } from '../db/client';
import type { StatusCategory } from '../db/generated/enums';
import { conflict, isUniqueViolation, notFound } from '../errors';
import { PROJECT_NOT_FOUND } from './types';
import type { Prisma } from '../db/generated/client';
import { MAX_LABELS_PER_WORKSPACE, MAX_STATUSES_PER_PROJECT } from '../schemas/lookups';

export const prefixSchema = z.string().regex(/^[A-Z][A-Z0-9]{0,9}$/, 'must be 1 to 10 uppercase letters or digits, starting with a letter');

const DEFAULT_STATUSES: { name: string; category: StatusCategory; color: string }[] = [
  { name: 'To Do', category: 'todo', color: '#94a3b8' },
  { name: 'In Progress', category: 'in_progress', color: '#3b82f6' },
  { name: 'Done', category: 'done', color: '#22c55e' },
];

export async function createProject(db: Db, input: { workspaceId: string; slug: string; name: string; keyPrefix: string }) {
  try {
    return await db.project.create({
      data: {
        ...input,
        statuses: { create: DEFAULT_STATUSES.map((status, order) => ({ ...status, order })) },
      },
      include: { statuses: { orderBy: { order: 'asc' } } },
    });
  } catch (error) {
    if (isUniqueViolation(error))
      throw conflict(`A project with slug ${input.slug} or prefix ${input.keyPrefix} already exists in this workspace`);
    throw error;
  }
}

export async function findProject(db: Db, workspaceId: string, slug: string) {
  const project = await db.project.findUnique({ where: { workspaceId_slug: { workspaceId, slug } } });
  if (!project) throw notFound(`Project ${slug} not found`);
  return project;
}

/** The id of the workspace's project with this slug; 404 `Project not found` as the API's paths answer. */
export async function projectIdOf(db: Db, workspaceId: string, slug: string): Promise<string> {
  const project = await db.project.findUnique({ where: { workspaceId_slug: { workspaceId, slug } }, select: { id: true } });
  if (!project) throw notFound(PROJECT_NOT_FOUND);
  return project.id;
}

/** Appends a status after the project's last one in display order. */
export async function createStatus(db: Db, input: { projectId: string; name: string; category: StatusCategory; color: string | null }) {
  return db.$transaction(async (tx) => {
    // Serialises concurrent appends to the same project so orders stay distinct, and counts stay within the bound.
    await tx.$queryRaw`SELECT id FROM project WHERE id = ${input.projectId}::uuid FOR UPDATE`;
    const last = await tx.status.aggregate({ where: { projectId: input.projectId }, _max: { order: true }, _count: true });
    if (last._count >= MAX_STATUSES_PER_PROJECT) throw conflict(`A project has at most ${MAX_STATUSES_PER_PROJECT} statuses`);
    return tx.status.create({ data: { ...input, order: (last._max.order ?? -1) + 1 } });
  });
}

export async function createLabel(db: Db, input: { workspaceId: string; name: string; color: string; projectId: string | null }) {
  return db.$transaction(async (tx) => {
    // The workspace's row, locked, makes parallel creates count one after another.
    await tx.$queryRaw`SELECT 1 FROM workspace WHERE id = ${input.workspaceId}::uuid FOR UPDATE`;
    if ((await tx.label.count({ where: { workspaceId: input.workspaceId } })) >= MAX_LABELS_PER_WORKSPACE) {
      throw conflict(`A workspace has at most ${MAX_LABELS_PER_WORKSPACE} labels`);
    }
    return createLabelRow(tx, input);
  });
}

function createLabelRow(
  db: Prisma.TransactionClient,
  input: { workspaceId: string; name: string; color: string; projectId: string | null },
) {
  return db.label.create({
    data: {
      workspaceId: input.workspaceId,
      name: input.name,
      color: input.color,
      scope: input.projectId ? 'project' : 'workspace',
      projects: input.projectId ? { create: { projectId: input.projectId } } : undefined,
    },
  });
}
