import { z } from 'zod';
import { dateTime, dateTimeInput, MAX_NAME, nextCursor, uuid } from './common';
import { changeCursor, wholeNumber } from './task';

/**
 * What the audit log records: one action per kind of change to who may reach a
 * workspace and how (keys, apps, webhooks, members, sign-ins).
 */
export const AUDIT_ACTIONS = [
  'api_key.created',
  'api_key.revoked',
  'api_key.rejected',
  'oauth_app.connected',
  'oauth_app.revoked',
  'webhook_endpoint.created',
  'webhook_endpoint.updated',
  'webhook_endpoint.secret_rotated',
  'webhook_endpoint.enabled',
  'webhook_endpoint.disabled',
  'webhook_endpoint.deleted',
  'webhook_delivery.resent',
  'member.added',
  'member.removed',
  'member.role_changed',
  'member.password_reset',
  'sign_in.succeeded',
  'sign_in.failed',
  'sign_in.locked_out',
  'workspace.owner_set_up',
  'database.environment_marked',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** The part of an action before its dot: `api_key` for `api_key.created`, a filter of its own. */
export const actionGroup = (action: string) => action.split('.')[0]!;
export const AUDIT_ACTION_GROUPS = [...new Set(AUDIT_ACTIONS.map(actionGroup))];

/** An IP address as text: IPv6 at its longest, an IPv4-mapped one, is 45 characters. */
export const MAX_IP = 45;

export const ACTOR_TYPES = ['person', 'api_key', 'oauth_app', 'cli', 'system'] as const;
export type ActorType = (typeof ACTOR_TYPES)[number];

export const TARGET_TYPES = ['api_key', 'oauth_app', 'webhook_endpoint', 'webhook_delivery', 'user', 'workspace', 'database'] as const;
export type TargetType = (typeof TARGET_TYPES)[number];

/**
 * The only fields whose before and after an event keeps. Anything else a caller
 * passes is dropped, so a secret can never reach the log by a field added later.
 */
export const CHANGE_FIELDS = [
  'name',
  'scopes',
  'projectId',
  'expiresAt',
  'url',
  'events',
  'deliverOnPreviews',
  'enabled',
  'role',
  'environment',
] as const;

const ACTION_FILTER = `must be an action such as api_key.created or a group: ${AUDIT_ACTION_GROUPS.join(', ')}`;
export const isActionFilter = (value: string) =>
  (AUDIT_ACTIONS as readonly string[]).includes(value) || AUDIT_ACTION_GROUPS.includes(value);

export const MAX_AUDIT_PAGE = 100;
const ID_FILTER = 'must be at most 100 characters';

/** Ids of actors and targets: UUIDs, or a person's id. */
const MAX_AUDIT_ID = 100;
/** A target's name: a webhook endpoint is named by its URL (without its query), at most 2,000 characters. */
const MAX_TARGET_NAME = 2_000;
/** What a request's User-Agent is cut to. */
export const MAX_USER_AGENT = 512;

const party = (kind: 'Who acted' | 'What the action was on', types: readonly [string, ...string[]], id: string, name: number) =>
  z
    .object({
      type: z.enum(types),
      id: z.string().max(MAX_AUDIT_ID).nullable().meta({ description: 'Null for the CLI and the server itself' }),
      name: z.string().max(name).nullable().meta({ description: 'As it was when the event happened' }),
    })
    .meta({ id, description: kind });

export const auditEventSchema = z
  .object({
    id: uuid(),
    occurredAt: dateTime(),
    action: z.enum(AUDIT_ACTIONS),
    actor: party('Who acted', ACTOR_TYPES, 'AuditActor', MAX_NAME),
    target: party('What the action was on', TARGET_TYPES, 'AuditTarget', MAX_TARGET_NAME),
    ip: z
      .string()
      .max(MAX_IP)
      .nullable()
      .meta({ description: 'The client address the server resolved, never a forwarded header it does not trust' }),
    userAgent: z.string().max(MAX_USER_AGENT).nullable(),
    requestId: z.string().max(MAX_AUDIT_ID).nullable().meta({ description: 'The `X-Request-Id` the request answered with' }),
    changes: z
      .partialRecord(z.enum(CHANGE_FIELDS), z.object({ before: z.unknown(), after: z.unknown() }))
      .nullable()
      .meta({ description: `Before and after of the fields the change touched, among ${CHANGE_FIELDS.join(', ')}` }),
  })
  .meta({ id: 'AuditEvent' });
export type AuditEvent = z.output<typeof auditEventSchema>;

/** The filters of the list and the export. */
export const auditFilters = z.object({
  // Described before `.optional()`: a description on the optional wrapper is lost from query parameters.
  action: z
    .string()
    .max(100, ACTION_FILTER)
    .refine(isActionFilter, ACTION_FILTER)
    .meta({ description: 'An action (`api_key.created`) or a group of them (`api_key`)', example: 'api_key' })
    .optional(),
  actorType: z.enum(ACTOR_TYPES, { error: `must be one of ${ACTOR_TYPES.join(', ')}` }).optional(),
  actorId: z.string().max(100, ID_FILTER).meta({ description: "The actor's id: a person's, a key's or an app's" }).optional(),
  targetType: z.enum(TARGET_TYPES, { error: `must be one of ${TARGET_TYPES.join(', ')}` }).optional(),
  targetId: z.string().max(100, ID_FILTER).meta({ description: "The target's id" }).optional(),
  since: dateTimeInput().meta({ description: 'Events at or after this time; ISO 8601 date-time with a time zone' }).optional(),
  until: dateTimeInput().meta({ description: 'Events before this time (exclusive); ISO 8601 date-time with a time zone' }).optional(),
});
export type AuditFilters = z.output<typeof auditFilters>;

export const auditEventsQuery = auditFilters.extend({
  after: changeCursor().meta({ description: 'The events after (older than) this place, from an earlier `meta.nextCursor`' }).optional(),
  limit: wholeNumber(`from 1 to ${MAX_AUDIT_PAGE}`)
    .min(1, `must be a whole number from 1 to ${MAX_AUDIT_PAGE}`)
    .max(MAX_AUDIT_PAGE, `must be a whole number from 1 to ${MAX_AUDIT_PAGE}`)
    .meta({ format: 'int32' })
    .default(50),
});
export type AuditEventsQuery = z.output<typeof auditEventsQuery>;

export const AUDIT_EXPORT_FORMATS = ['ndjson', 'csv'] as const;
export const auditExportQuery = auditFilters.extend({
  format: z
    .enum(AUDIT_EXPORT_FORMATS, { error: `must be one of ${AUDIT_EXPORT_FORMATS.join(', ')}` })
    .meta({ description: 'NDJSON (one AuditEvent per line) or CSV (one row per event, `changes` as JSON text)' })
    .default('ndjson'),
});
export type AuditExportQuery = z.output<typeof auditExportQuery>;

export const auditEventListSchema = z
  .object({
    events: z.array(auditEventSchema).max(MAX_AUDIT_PAGE).meta({ description: 'Newest first' }),
    meta: z.object({
      hasMore: z.boolean(),
      nextCursor: nextCursor().nullable().meta({ description: 'Pass it as `after` to read on; null when the page is empty' }),
    }),
  })
  .meta({ id: 'AuditEventList' });
