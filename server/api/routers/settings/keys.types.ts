import { z } from 'zod';
import { futureDate, keyCreateSchema, type listApiKeys } from '../../../keys/manage';
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

type ListedKey = Awaited<ReturnType<typeof listApiKeys>>[number];

/** What the page shows of a key: never the secret, and dates as ISO text so it travels as JSON. */
export function toKeyView(key: ListedKey) {
  return {
    id: key.id,
    name: key.name,
    hint: key.hint,
    scopes: key.scopes,
    project: key.project && { id: key.project.id, name: key.project.name },
    createdAt: key.createdAt.toISOString(),
    createdBy: key.createdBy?.name ?? null,
    expiresAt: key.expiresAt?.toISOString() ?? null,
    lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
    state: key.state,
  };
}

export type KeyView = ReturnType<typeof toKeyView>;
