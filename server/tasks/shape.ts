import type { z } from 'zod';
import { Prisma } from '../db/generated/client';
import type { taskSchema } from '../schemas/task';

export type Task = z.infer<typeof taskSchema>;

/** A task as TASK_COLUMNS reads it: its relations arrive as JSON the database built. */
export interface TaskRow {
  id: string;
  number: number;
  title: string;
  description: string | null;
  category: Task['category'];
  priority: Task['priority'];
  due_date: Date | null;
  created_at: Date;
  updated_at: Date;
  status: Task['status'];
  assignees: Task['assignees'];
  labels: Task['labels'];
  attachments: Task['attachments'];
}

/**
 * Everything a Task response needs, with its relations, for `FROM task t`: one
 * statement whatever the number of tasks. Written out rather than left to Prisma's
 * relation joins, whose nested LATERAL statement costs PostgreSQL several times
 * more to plan and run for the same rows.
 */
export const TASK_COLUMNS = Prisma.sql`
  t.id::text, t.number, t.title, t.description, t.category::text, t.priority::text, t.due_date, t.created_at, t.updated_at,
  (SELECT jsonb_build_object('id', s.id, 'name', s.name, 'color', s.color, 'category', s.category)
     FROM status s WHERE s.project_id = t.project_id AND s.id = t.status_id) AS status,
  (SELECT coalesce(jsonb_agg(jsonb_build_object('id', u.id, 'name', u.name) ORDER BY u.name, u.id), '[]')
     FROM task_assignee ta JOIN "user" u ON u.id = ta.user_id WHERE ta.task_id = t.id) AS assignees,
  (SELECT coalesce(jsonb_agg(jsonb_build_object('id', l.id, 'name', l.name, 'color', l.color) ORDER BY l.name, l.id), '[]')
     FROM task_label tl JOIN label l ON l.id = tl.label_id WHERE tl.task_id = t.id) AS labels,
  (SELECT coalesce(jsonb_agg(jsonb_build_object('id', a.id, 'filename', a.filename) ORDER BY a.created_at, a.id), '[]')
     FROM attachment a WHERE a.task_id = t.id) AS attachments`;

export function toTask(row: TaskRow, keyPrefix: string): Task {
  return {
    id: row.id,
    externalId: `${keyPrefix}-${row.number}`,
    title: row.title,
    description: row.description,
    category: row.category,
    status: row.status,
    priority: row.priority,
    dueDate: row.due_date?.toISOString() ?? null,
    assignees: row.assignees,
    labels: row.labels,
    attachments: row.attachments,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}
