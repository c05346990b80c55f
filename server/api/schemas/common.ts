import { z } from 'zod';

export const CATEGORIES = ['todo', 'in_progress', 'done'] as const;
export const PRIORITIES = ['none', 'low', 'medium', 'high', 'urgent'] as const;

export const uuid = () => z.uuid({ error: 'must be a UUID' });

/** PostgreSQL text cannot hold U+0000: such input is refused, not left to fail in the database. */
export const hasNoNul = (value: string) => !value.includes('\u0000');
export const NO_NUL = 'must not contain the character U+0000';

/** Counts characters as people do (code points), not UTF-16 units. */
export const charCount = (value: string) => [...value].length;

export const dateTime = () =>
  z.string().meta({ format: 'date-time', description: 'ISO 8601 date-time in UTC', example: '2026-01-31T17:00:00.000Z' });

export const categorySchema = z
  .enum(CATEGORIES, { error: `must be one of ${CATEGORIES.join(', ')}` })
  .meta({ id: 'Category', description: 'Status category' });

export const prioritySchema = z
  .enum(PRIORITIES, { error: `must be one of ${PRIORITIES.join(', ')}` })
  .meta({ id: 'Priority' });

export const hexColor = () => z.string().meta({ description: 'Hex color code', example: '#3b82f6' });

export const projectPath = {
  projectSlug: z.string().meta({ description: 'Slug of the project', example: 'web' }),
};

export const taskPath = {
  ...projectPath,
  taskId: z.string().meta({ description: 'Task UUID or external ID (case-insensitive)', example: 'WEB-12' }),
};

export const successSchema = z.object({ success: z.literal(true) }).meta({ id: 'Success' });

export const errorSchema = z
  .object({
    statusCode: z.number().int().meta({ example: 400 }),
    message: z.string().meta({ example: 'title: must be 1 to 500 characters' }),
  })
  .meta({ id: 'ApiError', description: 'Every error response has this shape.' });
