import { z } from 'zod';
import { changeCursor } from './task';
import { MAX_IP, MAX_USER_AGENT } from './audit';
import { dateTime, dateTimeInput, int32, MAX_ERROR_MESSAGE, nextCursor, uuid } from './common';

export const MAX_REQUESTS_PAGE = 100;
/** The longest route a filter or a record names. */
export const MAX_ROUTE = 300;
/** What a record keeps of a request's path. */
export const MAX_PATH = 2_048;
/** How far back a key or app reads its own requests without the scope requests:read. */
export const OWN_REQUESTS_HOURS = 24;
export const REQUEST_METHODS = ['GET', 'POST', 'PATCH', 'DELETE'] as const;

const STATUS_FILTER = 'must be a status code such as 404, or a class: 2xx, 3xx, 4xx or 5xx';
const LIMIT = `must be a whole number from 1 to ${MAX_REQUESTS_PAGE}`;

/** A status code, or a class of them: `404` or `4xx`, as a range of codes. */
export const statusFilter = z
  .string()
  .max(3, STATUS_FILTER)
  .regex(/^([1-5][0-9]{2}|[1-5]xx)$/, STATUS_FILTER)
  .transform((value) =>
    value.endsWith('xx') ? { from: Number(value[0]) * 100, to: Number(value[0]) * 100 + 99 } : { from: Number(value), to: Number(value) },
  )
  .meta({ description: 'A status code (`404`) or a class (`4xx`, which includes 429)', example: '4xx' });

const ownFilters = {
  status: statusFilter.optional(),
  method: z.enum(REQUEST_METHODS, { error: `must be one of ${REQUEST_METHODS.join(', ')}` }).optional(),
  route: z
    .string()
    .min(1, 'must be 1 to 300 characters')
    .max(MAX_ROUTE, 'must be 1 to 300 characters')
    .meta({
      description: 'The operation, exactly as records name it: `/v1/public/{projectSlug}/tasks` or `tools/call get_task`',
      example: '/v1/public/{projectSlug}/tasks',
    })
    .optional(),
  requestId: uuid().meta({ description: 'The `X-Request-Id` the request was answered with' }).optional(),
  idempotencyKey: z
    .string()
    .max(255, 'must be 1 to 255 printable ASCII characters')
    .regex(/^[\x20-\x7e]{1,255}$/, 'must be 1 to 255 printable ASCII characters')
    .meta({ description: 'The `Idempotency-Key` the request was sent with' })
    .optional(),
  since: dateTimeInput().meta({ description: 'Only requests made at or after this time' }).optional(),
  until: dateTimeInput().meta({ description: 'Only requests made before this time' }).optional(),
  after: changeCursor().meta({ description: 'The requests after this place (older ones), from an earlier `meta.nextCursor`' }).optional(),
  limit: z.number({ error: LIMIT }).int({ error: LIMIT }).min(1, LIMIT).max(MAX_REQUESTS_PAGE, LIMIT).meta({ format: 'int32' }).default(50),
};

/** The own requests' query: the caller's last 24 hours. */
export const ownRequestsQuery = z.object(ownFilters);

/** The workspace's request log's query. */
export const requestsQuery = z
  .object({
    keyId: uuid().meta({ description: "Only this API key's requests" }).optional(),
    appId: uuid().meta({ description: "Only this connected app's requests (its id in the apps list)" }).optional(),
    ...ownFilters,
  })
  .refine((query) => !(query.keyId && query.appId), { message: 'cannot be combined with keyId', path: ['appId'] });

export type RequestsQuery = z.infer<typeof ownRequestsQuery> & { principalId?: string; principalKind?: 'key' | 'app' };

export const requestRecordSchema = z
  .object({
    requestId: uuid().meta({ description: 'The `X-Request-Id` the request was answered with; the tool calls of one MCP request share it' }),
    occurredAt: dateTime(),
    keyId: uuid().nullable().meta({ description: 'The API key, or null for an app' }),
    appId: uuid().nullable().meta({ description: 'The connected app, or null for an API key' }),
    method: z.string().max(10).meta({ example: 'POST' }),
    route: z.string().max(MAX_ROUTE).meta({ example: '/v1/public/{projectSlug}/tasks' }),
    path: z.string().max(MAX_PATH).meta({ example: '/v1/public/web/tasks' }),
    status: int32(100).max(599).meta({ example: 201 }),
    durationMs: int32().meta({ description: 'From the request to its answer, in milliseconds' }),
    idempotencyKey: z.string().max(255).nullable(),
    replayed: z.boolean().meta({ description: 'The answer was the one stored for the `Idempotency-Key`, sent again' }),
    ip: z.string().max(MAX_IP).meta({ description: "The client's address" }),
    userAgent: z.string().max(MAX_USER_AGENT).nullable(),
    message: z.string().max(MAX_ERROR_MESSAGE).nullable().meta({ description: 'The error message of a 4xx or 5xx answer; null otherwise' }),
  })
  .meta({ id: 'RequestRecord' });

export const requestListSchema = z
  .object({
    requests: z.array(requestRecordSchema).max(MAX_REQUESTS_PAGE).meta({ description: 'Newest first' }),
    meta: z.object({
      hasMore: z.boolean(),
      nextCursor: nextCursor().nullable().meta({ description: 'Pass it as `after` to read older requests; null when there are none' }),
    }),
  })
  .meta({ id: 'RequestList' });
