import { z } from 'zod';
import { dateTime, dateTimeInput, uuid } from './common';
import { MAX_ROUTE } from './request-log';

export const GRANULARITIES = ['minute', 'hour', 'day'] as const;
export type Granularity = (typeof GRANULARITIES)[number];

/** The longest range a usage query covers, and how far back it may start. */
export const MAX_USAGE_DAYS = 90;
/** Per-minute counts cover at most this many hours in one query. */
export const MAX_MINUTE_RANGE_HOURS = 24;

export const usageQuery = z
  .object({
    keyId: uuid().meta({ description: "Only this API key's requests" }).optional(),
    appId: uuid().meta({ description: "Only this connected app's requests" }).optional(),
    route: z.string().min(1, 'must be 1 to 300 characters').max(MAX_ROUTE, 'must be 1 to 300 characters').optional(),
    granularity: z
      .enum(GRANULARITIES, { error: `must be one of ${GRANULARITIES.join(', ')}` })
      .meta({ description: `Bucket size; \`minute\` for ranges of at most ${MAX_MINUTE_RANGE_HOURS} hours` })
      .default('hour'),
    since: dateTimeInput().meta({ description: 'Start of the range (default: 24 hours ago)' }).optional(),
    until: dateTimeInput().meta({ description: 'End of the range, exclusive (default: now)' }).optional(),
  })
  .refine((query) => !(query.keyId && query.appId), { message: 'cannot be combined with keyId', path: ['appId'] });
export type UsageQuery = z.output<typeof usageQuery>;

/** A count of requests: over 90 days it may pass an int4. */
const count = () => z.number().int().min(0).meta({ format: 'int64' });
/** The most buckets an answer holds: 90 days by the hour, and the hour the range starts in. */
const MAX_BUCKETS = MAX_USAGE_DAYS * 24 + 1;
/** The keys and apps, and the operations, an answer lists at most. */
export const MAX_USAGE_TOP = 100;

const counts = {
  requests: count(),
  '2xx': count().meta({ description: 'Answers that are no error, 304 Not Modified included' }),
  '4xx': count().meta({ description: 'Client errors other than 429' }),
  '429': count().meta({ description: 'Refused by the rate limit' }),
  '5xx': count(),
  p50Ms: z
    .number()
    .nullable()
    .meta({ description: 'Median duration, read from log-scale buckets (at most 41 % high); null without requests' }),
  p95Ms: z.number().nullable(),
};

export const usageCountsSchema = z.object(counts).meta({ id: 'UsageCounts' });

export const usageSchema = z
  .object({
    granularity: z.enum(GRANULARITIES),
    since: dateTime(),
    until: dateTime(),
    total: usageCountsSchema,
    buckets: z
      .array(z.object({ start: dateTime(), ...counts }))
      .max(MAX_BUCKETS)
      .meta({ description: 'Buckets that saw requests, oldest first; a bucket starts on the minute, hour or day (UTC)' }),
    keys: z
      .array(z.object({ keyId: uuid().nullable(), appId: uuid().nullable(), ...counts }))
      .max(MAX_USAGE_TOP)
      .meta({ description: 'The keys and apps, most requests first (at most 100)' }),
    routes: z
      .array(z.object({ method: z.string().max(10), route: z.string().max(MAX_ROUTE), ...counts }))
      .max(MAX_USAGE_TOP)
      .meta({ description: 'The operations, most requests first (at most 100)' }),
  })
  .meta({ id: 'Usage' });
export type Usage = z.output<typeof usageSchema>;
