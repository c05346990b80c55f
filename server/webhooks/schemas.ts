import { z } from 'zod';
import { changeCursor } from '../schemas/task';
import { dateTime, int32, MAX_NAME, nextCursor, uuid } from '../schemas/common';
import { MAX_SLUG } from '../schemas/workspace';
import { EVENT_TYPES } from './events';

/**
 * The public API's webhook endpoints and deliveries: the same rules the settings page
 * keeps (endpoints.ts checks the URL, the events and the project for both).
 */
export const MAX_URL_LENGTH = 2000;
export const MAX_DELIVERIES_PAGE = 100;
const URL_RULE = `must be 1 to ${MAX_URL_LENGTH} characters`;
const LIMIT = `must be a whole number from 1 to ${MAX_DELIVERIES_PAGE}`;
const DELIVERY_STATUSES = ['pending', 'delivered', 'failed', 'held'] as const;

const id = (what: string) => uuid().meta({ description: what, example: '3f1c9a4e-7b2d-4e8f-9c1a-5d6e7f8a9b0c' });

export const endpointPath = { endpointId: id('The endpoint, as its create answer named it') };
export const deliveryPath = { ...endpointPath, deliveryId: id('The delivery, as the deliveries list names it') };

const url = z.string().min(1, URL_RULE).max(MAX_URL_LENGTH, URL_RULE).meta({
  description:
    'Where events are POSTed: https, on port 443 or 1024 to 65535, never resolving to a loopback, private, link-local or metadata address',
  example: 'https://hooks.example.com/task-api',
});
const events = z
  .array(z.enum(EVENT_TYPES, { error: `must be one of ${EVENT_TYPES.join(', ')}` }))
  .max(EVENT_TYPES.length)
  .meta({ description: 'The event types sent; empty: every project event (not `audit.event`, which is sent only by name)' });
const projectFilter = z
  .string()
  .max(MAX_SLUG)
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'must be a project slug')
  .nullable()
  .meta({ description: 'The slug of the one project whose events are sent; null: every project of the workspace', example: 'web' });

export const createWebhookFields = z.strictObject({
  url,
  events: events.default([]),
  project: projectFilter.default(null),
});

export const updateWebhookFields = z.strictObject({
  url: url.optional(),
  events: events.optional(),
  project: projectFilter.optional(),
  enabled: z.boolean().optional().meta({ description: 'false disables it (it then receives nothing); true enables it again' }),
});

export const rotateSecretFields = z.strictObject({
  expirePrevious: z
    .boolean()
    .default(false)
    .meta({ description: 'Stop the secret being replaced at once (it leaked) instead of letting it sign beside the new one for 24 hours' }),
});

export const deliveriesQuery = z.object({
  after: changeCursor().meta({ description: 'The deliveries after this place (older ones), from an earlier `meta.nextCursor`' }).optional(),
  limit: z
    .number({ error: LIMIT })
    .int({ error: LIMIT })
    .min(1, LIMIT)
    .max(MAX_DELIVERIES_PAGE, LIMIT)
    .meta({ format: 'int32' })
    .default(50),
});

export const webhookSchema = z
  .object({
    id: uuid().meta({ description: 'Keep it: it names the endpoint to change, test or delete' }),
    url: z.string().max(MAX_URL_LENGTH),
    events,
    project: z
      .object({ id: uuid(), slug: z.string().max(MAX_SLUG) })
      .nullable()
      .meta({ description: 'Null: every project' }),
    enabled: z.boolean(),
    disabledAt: dateTime().nullable(),
    disabledReason: z.string().max(500).nullable().meta({
      description: 'Why it is disabled: by whom, its receiver answering 410 Gone, or every retry failing',
      example: 'The endpoint answered 410 Gone.',
    }),
    createdAt: dateTime(),
    createdBy: z
      .object({
        kind: z.enum(['api_key', 'app']),
        id: uuid(),
        name: z.string().max(MAX_NAME),
        revoked: z.boolean().meta({ description: 'The key or app was revoked since; the endpoint is kept as it is' }),
      })
      .nullable()
      .meta({ description: 'The key or app that created it through the API; null: created in the settings page or the admin CLI' }),
    previousSecretExpiresAt: dateTime()
      .nullable()
      .meta({ description: 'Until when the secret the last rotation replaced still signs beside the current one' }),
  })
  .meta({ id: 'Webhook' });

export const webhookWithSecretSchema = webhookSchema
  .extend({
    secret: z
      .string()
      .max(100)
      .regex(/^whsec_[A-Za-z0-9+/]+=*$/)
      .meta({
        description: 'The signing secret, shown this once: verify each delivery with it',
        example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      }),
  })
  .meta({ id: 'WebhookWithSecret' });

export const webhookListSchema = z
  .object({ webhooks: z.array(webhookSchema).max(20).meta({ description: 'Newest first; a workspace has at most 20' }) })
  .meta({ id: 'WebhookList' });

export const deliverySchema = z
  .object({
    id: uuid(),
    messageId: z
      .string()
      .max(40)
      .meta({ description: 'The `webhook-id` header: the same on every attempt', example: 'msg_2f0c4d1e8a9b4c7d9e0f1a2b3c4d5e6f' }),
    eventType: z.string().max(40).meta({ example: 'task.created' }),
    status: z.enum(DELIVERY_STATUSES).meta({
      description:
        '`pending` until an attempt gets a 2xx (`delivered`) or the retries end (`failed`); `held` when a preview deployment recorded it without sending it, `lastError` saying why',
    }),
    attempts: int32().meta({ description: 'Attempts made so far' }),
    responseCode: int32(100).max(599).nullable().meta({ description: "The last attempt's HTTP status; null when it got none" }),
    durationMs: int32().nullable().meta({ description: "The last attempt's time to the answer's head" }),
    lastError: z.string().max(500).nullable().meta({ description: 'Why the last attempt failed, or why it is held; null once delivered' }),
    createdAt: dateTime(),
    updatedAt: dateTime().meta({ description: 'When the last attempt ended, or the delivery was queued again' }),
  })
  .meta({ id: 'WebhookDelivery' });

export const deliveryListSchema = z
  .object({
    deliveries: z.array(deliverySchema).max(MAX_DELIVERIES_PAGE).meta({ description: 'Newest first' }),
    meta: z.object({
      hasMore: z.boolean(),
      nextCursor: nextCursor().nullable().meta({ description: 'Pass it as `after` to read older deliveries; null when there are none' }),
    }),
  })
  .meta({ id: 'WebhookDeliveryList' });
