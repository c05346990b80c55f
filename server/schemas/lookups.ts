import { z } from 'zod';
import { categorySchema, hexColor, int32, MAX_NAME, uuid } from './common';

/**
 * The lookups are answered whole (the contract has no pages for them), so each has a bound,
 * checked where one is added: a project's statuses, a workspace's labels and members.
 */
export const MAX_STATUSES_PER_PROJECT = 100;
export const MAX_LABELS_PER_WORKSPACE = 1_000;
export const MAX_MEMBERS_PER_WORKSPACE = 10_000;

export const statusSchema = z
  .object({
    id: uuid(),
    name: z.string().max(MAX_NAME),
    color: hexColor().nullable(),
    category: categorySchema,
    order: int32().meta({ description: 'Display order within the project' }),
  })
  .meta({ id: 'Status' });

export const labelSchema = z.object({ id: uuid(), name: z.string().max(MAX_NAME), color: hexColor() }).meta({ id: 'Label' });

export const memberSchema = z
  .object({
    id: uuid().meta({ description: 'User ID' }),
    name: z.string().max(MAX_NAME),
    email: z.string().max(254).meta({ format: 'email' }),
  })
  .meta({ id: 'Member' });
