import type { z } from 'zod';
import type { Prisma } from '../db/generated/client';
import type { taskSchema } from '../api/schemas/task';

/** Everything a Task response needs, loaded in one go with the task. */
export const taskSelect = {
  id: true,
  number: true,
  title: true,
  description: true,
  category: true,
  priority: true,
  dueDate: true,
  createdAt: true,
  updatedAt: true,
  status: { select: { id: true, name: true, color: true, category: true } },
  assignees: { select: { user: { select: { id: true, name: true } } }, orderBy: { user: { name: 'asc' } } },
  labels: { select: { label: { select: { id: true, name: true, color: true } } }, orderBy: { label: { name: 'asc' } } },
  attachments: { select: { id: true, filename: true }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] },
} satisfies Prisma.TaskSelect;

export type TaskRow = Prisma.TaskGetPayload<{ select: typeof taskSelect }>;
export type Task = z.infer<typeof taskSchema>;

export function toTask(row: TaskRow, keyPrefix: string): Task {
  return {
    id: row.id,
    externalId: `${keyPrefix}-${row.number}`,
    title: row.title,
    description: row.description,
    category: row.category,
    status: row.status,
    priority: row.priority,
    dueDate: row.dueDate?.toISOString() ?? null,
    assignees: row.assignees.map((a) => a.user),
    labels: row.labels.map((l) => l.label),
    attachments: row.attachments,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
