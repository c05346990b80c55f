import { z } from 'zod';

export const CATEGORIES = ['todo', 'in_progress', 'done'] as const;
export const PRIORITIES = ['none', 'low', 'medium', 'high', 'urgent'] as const;

export const uuid = () => z.uuid({ error: 'must be a UUID' }).max(36, 'must be a UUID');

/** The largest PostgreSQL int4: page numbers stay within it, so (page - 1) * limit is always a valid OFFSET. */
export const MAX_INT4 = 2_147_483_647;

/** A whole number of an answer that PostgreSQL keeps as an int4 (a count, a status, milliseconds), at least `min`. */
export const int32 = (min = 0) => z.number().int().min(min).max(MAX_INT4).meta({ format: 'int32' });

/** The most characters of any name (a workspace's, a project's, a person's, a status's, a label's). */
export const MAX_NAME = 200;
/** An opaque cursor from `meta.nextCursor`, as every list answers it. */
export const nextCursor = () =>
  z
    .string()
    .max(200)
    .regex(/^[A-Za-z0-9_-]+$/);
/** The most characters of an error's message: validation messages name at most this much of what failed. */
export const MAX_ERROR_MESSAGE = 1_000;

export { storableText as text } from '../db/storable';

/** Counts characters as people do (code points), not UTF-16 units. */
export const charCount = (value: string) => [...value].length;

/** As toISOString() writes it: 24 characters for years 1 to 9999. */
export const dateTime = () =>
  z.string().max(24).meta({ format: 'date-time', description: 'ISO 8601 date-time in UTC', example: '2026-01-31T17:00:00.000Z' });

// PostgreSQL stores years from 4713 BC, JavaScript reads dates up to year 275760;
// years 1 to 9999 are what both handle and what ISO 8601 writes in four digits.
const EARLIEST_DATE = new Date('0001-01-01T00:00:00.000Z');
const LATEST_DATE = new Date('9999-12-31T23:59:59.999Z');
const DATE_TIME = 'must be an ISO 8601 date-time with a time zone, e.g. 2026-01-31T17:00:00Z';
const DATE_RANGE = `must be from ${EARLIEST_DATE.toISOString()} to ${LATEST_DATE.toISOString()} in UTC`;

/**
 * A date-time the client writes with its offset, as a Date. The range is checked
 * in UTC, after the offset: 0001-01-01T00:00:00+14:00 is still year 0 there.
 */
export const dateTimeInput = () =>
  // Zod's own date-time check accepts impossible days such as 2026-02-30.
  z.iso
    .datetime({ offset: true, error: DATE_TIME })
    .max(64, DATE_TIME)
    .refine(isRealDate, DATE_TIME)
    .transform((value) => new Date(value))
    .refine((date) => date >= EARLIEST_DATE && date <= LATEST_DATE, DATE_RANGE)
    .meta({ description: 'ISO 8601 date-time with a time zone, from year 1 to 9999 in UTC; returned in UTC' });

function isRealDate(value: string): boolean {
  const [, year, month, day] = /^(\d{4})-(\d{2})-(\d{2})/.exec(value) ?? [];
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  return date.getUTCMonth() === Number(month) - 1 && date.getUTCDate() === Number(day);
}

export const categorySchema = z
  .enum(CATEGORIES, { error: `must be one of ${CATEGORIES.join(', ')}` })
  .meta({ id: 'Category', description: 'Status category' });

export const prioritySchema = z.enum(PRIORITIES, { error: `must be one of ${PRIORITIES.join(', ')}` }).meta({ id: 'Priority' });

/** `#rrggbb`: what the admin CLI accepts and so what the API returns. */
export const hexColor = () =>
  z
    .string()
    .max(7, 'must be a hex color like #3b82f6')
    .regex(/^#[0-9a-fA-F]{6}$/, 'must be a hex color like #3b82f6')
    .meta({ description: 'Hex color code', example: '#3b82f6' });

export const successSchema = z.object({ success: z.literal(true) }).meta({ id: 'Success' });

export const errorSchema = z
  .object({
    statusCode: z.number().int().min(400).max(599).meta({ format: 'int32', example: 400 }),
    message: z.string().max(MAX_ERROR_MESSAGE).meta({ example: 'title: must be 1 to 500 characters' }),
  })
  .meta({ id: 'ApiError', description: 'Every error response has this shape.' });
