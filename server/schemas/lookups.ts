import { z } from 'zod';
import { categorySchema, hexColor } from './common';

export const statusSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    color: hexColor().nullable(),
    category: categorySchema,
    order: z.number().int().meta({ description: 'Display order within the project' }),
  })
  .meta({ id: 'Status' });

export const labelSchema = z.object({ id: z.uuid(), name: z.string(), color: hexColor() }).meta({ id: 'Label' });

export const memberSchema = z
  .object({ id: z.uuid().meta({ description: 'User ID' }), name: z.string(), email: z.string() })
  .meta({ id: 'Member' });
