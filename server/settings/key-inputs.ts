import { z } from 'zod';
import { futureDate, keyCreateSchema } from '../keys/manage';
import { EXPIRY_DAYS } from './expiry-choices';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Never, a number of days from now (counted by the server's clock, not the
 * browser's), or a calendar date: the key then works until the end of that day, UTC.
 */
export const expirySchema = z
  .discriminatedUnion('kind', [
    z.object({ kind: z.literal('never') }),
    z.object({ kind: z.literal('days'), days: z.union(EXPIRY_DAYS.map((days) => z.literal(days))) }),
    z.object({ kind: z.literal('date'), date: z.iso.date('must be a date') }),
  ])
  .transform((expiry) => {
    if (expiry.kind === 'never') return null;
    if (expiry.kind === 'days') return new Date(Date.now() + expiry.days * DAY_MS);
    return new Date(`${expiry.date}T23:59:59.999Z`);
  })
  .pipe(futureDate().nullable());

export type Expiry = z.input<typeof expirySchema>;

export const keyCreateInput = keyCreateSchema.omit({ expiresAt: true }).extend({ expiry: expirySchema });
export type KeyCreateFields = z.input<typeof keyCreateInput>;

export const keyRevokeInput = z.object({ id: z.string() });
