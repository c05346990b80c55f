import { z } from 'zod';
import type { AuditContext } from '../audit/context';
import { listAuditEvents } from '../audit/list';
import type { Db } from '../db/client';
import { conflict, notFound } from '../errors';
import { createApiKey, futureDate, keyCreateSchema, listApiKeys, revokeApiKey } from '../keys/manage';
import { listGrants, revokeGrant } from '../oauth/grants';
import { isScope, SCOPES, TASK_SCOPES } from '../keys/scopes';
import { auditEventsQuery, isActionFilter } from '../schemas/audit';
import { createLabel, createProject, createStatus, findProject, prefixSchema } from '../projects/projects';
import { hexColor } from '../schemas/common';
import { CATEGORIES } from '../schemas/common';
import { addMember, emailSchema, passwordSchema, removeMember, ROLES, setMemberRole, userExists } from '../workspaces/members';
import { createWorkspace, findWorkspace, nameSchema, slugSchema } from '../workspaces/workspaces';
import { createEndpoint, deleteEndpoint, listDeliveries, listEndpoints, parseEvents } from '../webhooks/endpoints';
import { EVENT_TYPES } from '../webhooks/events';
import { listRequests } from '../request-log/list';
import { MAX_REQUESTS_PAGE, statusFilter } from '../schemas/request-log';
import { uuid } from '../schemas/common';
import { usageReport } from '../usage/report';
import { markDatabase } from './database-mark';

type OptionSpec = Record<string, { type: 'string' } | { type: 'boolean' }>;

export interface Command {
  usage: string;
  options: OptionSpec;
  input: z.ZodType;
  run(db: Db, input: unknown, audit: AuditContext): Promise<object>;
  /** The human-readable line printed without --json. */
  describe(record: object): string;
}

const strings = (...names: string[]): OptionSpec => Object.fromEntries(names.map((name) => [name, { type: 'string' as const }]));

const flags = (...names: string[]): OptionSpec => Object.fromEntries(names.map((name) => [name, { type: 'boolean' as const }]));

const required = <T extends z.ZodType>(schema: T) =>
  z
    .any()
    .refine((value) => value !== undefined, 'is required')
    .pipe(schema);

const scopesList = z
  .string()
  .transform((value) =>
    value
      .split(',')
      .map((scope) => scope.trim())
      .filter(Boolean),
  )
  .superRefine((scopes, ctx) => {
    for (const scope of scopes) {
      if (!isScope(scope)) ctx.addIssue({ code: 'custom', message: `${scope} is not a scope; use ${SCOPES.join(', ')}` });
    }
  })
  .pipe(keyCreateSchema.shape.scopes);

const LIMIT_MESSAGE = `must be a whole number from 1 to ${MAX_REQUESTS_PAGE}`;
const requestsLimit = z
  .string()
  .regex(/^\d+$/, LIMIT_MESSAGE)
  .transform(Number)
  .refine((n) => n >= 1 && n <= MAX_REQUESTS_PAGE, LIMIT_MESSAGE);

const ISO_MESSAGE = 'must be an ISO 8601 date or date-time, e.g. 2027-01-31 or 2027-01-31T00:00:00Z';
const isoDateTime = z
  .string()
  .refine((value) => z.iso.datetime({ offset: true }).safeParse(value).success || z.iso.date().safeParse(value).success, ISO_MESSAGE)
  .transform((value) => new Date(value));

function define<S extends z.ZodType, R extends object>(command: {
  usage: string;
  options: OptionSpec;
  input: S;
  run(db: Db, input: z.output<S>, audit: AuditContext): Promise<R>;
  describe(record: R): string;
}): Command {
  return command as Command;
}

export const commands: Record<string, Command> = {
  'database mark': define({
    usage: '--environment production|preview|…   # a branch copied from production: disables its webhook endpoints',
    options: strings('environment'),
    input: z.object({
      environment: required(
        z.string().regex(/^[a-z][a-z0-9-]{0,39}$/, 'must be an environment name such as preview (lowercase letters, digits, dashes)'),
      ),
    }),
    run: (db, input, audit) => markDatabase(db, input.environment, audit),
    describe: (m) =>
      m.previous === m.environment
        ? `This database is already marked as ${m.environment}'s`
        : `Marked this database as ${m.environment}'s (was ${m.previous ?? 'unmarked'})` +
          (m.endpointsDisabled > 0 ? `; disabled ${m.endpointsDisabled} webhook endpoint(s) copied from production` : ''),
  }),

  'workspace create': define({
    usage: '--slug S --name N',
    options: strings('slug', 'name'),
    input: z.object({ slug: required(slugSchema), name: required(nameSchema) }),
    run: (db, input) => createWorkspace(db, input),
    describe: (w) => `Created workspace ${w.slug} (${w.id})`,
  }),

  'member add': define({
    usage: '--workspace S --email E --name N [--role owner|admin|member] [--password-stdin | --password P] [--reset-password]',
    options: { ...strings('workspace', 'email', 'name', 'role', 'password'), ...flags('password-stdin', 'reset-password') },
    input: z
      .object({
        workspace: required(slugSchema),
        email: required(emailSchema),
        name: required(nameSchema),
        role: z.enum(ROLES, { error: `must be one of ${ROLES.join(', ')}` }).default('member'),
        password: passwordSchema.optional(),
        'reset-password': z.boolean().default(false),
      })
      .refine((input) => !input['reset-password'] || input.password !== undefined, {
        path: ['reset-password'],
        message: 'needs the new password, from --password-stdin',
      }),
    run: async (db, input, audit) => {
      const workspace = await findWorkspace(db, input.workspace);
      const resetPassword = input['reset-password'];
      // The same refusals as addMember's, worded with the options that change the answer.
      const exists = await userExists(db, input.email);
      if (exists && input.password !== undefined && !resetPassword) {
        throw conflict(`${input.email} already has an account; to replace its password and end its sessions, add --reset-password`);
      }
      if (!exists && resetPassword) throw notFound(`No user has the email ${input.email}; leave out --reset-password to create one`);
      const { email, name, role, password } = input;
      const member = await addMember(db, { workspaceId: workspace.id, email, name, role, password, resetPassword }, audit);
      return { ...member, passwordReset: resetPassword };
    },
    describe: (m) =>
      m.passwordReset
        ? `Set a new password for ${m.email}, ${m.role} (user ${m.id}); ended ${m.sessionsEnded} session(s)`
        : `Added ${m.email} as ${m.role} (user ${m.id})`,
  }),

  'member remove': define({
    usage: '--workspace S --email E',
    options: strings('workspace', 'email'),
    input: z.object({ workspace: required(slugSchema), email: required(emailSchema) }),
    run: async (db, input, audit) => {
      const workspace = await findWorkspace(db, input.workspace);
      return removeMember(db, { workspaceId: workspace.id, email: input.email }, audit);
    },
    describe: (m) =>
      `Removed ${m.email} from the workspace` +
      (m.sessionsEnded > 0 ? `; in no workspace any more, ${m.sessionsEnded} session(s) ended` : ''),
  }),

  'member role': define({
    usage: '--workspace S --email E --role owner|admin|member',
    options: strings('workspace', 'email', 'role'),
    input: z.object({
      workspace: required(slugSchema),
      email: required(emailSchema),
      role: required(z.enum(ROLES, { error: `must be one of ${ROLES.join(', ')}` })),
    }),
    run: async (db, input, audit) => {
      const workspace = await findWorkspace(db, input.workspace);
      return setMemberRole(db, { workspaceId: workspace.id, email: input.email, role: input.role }, audit);
    },
    describe: (m) =>
      m.previousRole === m.role ? `${m.email} is already ${m.role}` : `${m.email} is now ${m.role} (was ${m.previousRole})`,
  }),

  'project create': define({
    usage: '--workspace S --slug P --name N --prefix PFX',
    options: strings('workspace', 'slug', 'name', 'prefix'),
    input: z.object({
      workspace: required(slugSchema),
      slug: required(slugSchema),
      name: required(nameSchema),
      prefix: required(prefixSchema),
    }),
    run: async (db, input) => {
      const workspace = await findWorkspace(db, input.workspace);
      return createProject(db, { workspaceId: workspace.id, slug: input.slug, name: input.name, keyPrefix: input.prefix });
    },
    describe: (p) => `Created project ${p.slug} (${p.id}) with statuses ${p.statuses.map((s) => s.name).join(', ')}`,
  }),

  'status create': define({
    usage: '--workspace S --project P --name N --category todo|in_progress|done [--color #hex]',
    options: strings('workspace', 'project', 'name', 'category', 'color'),
    input: z.object({
      workspace: required(slugSchema),
      project: required(slugSchema),
      name: required(nameSchema),
      category: required(z.enum(CATEGORIES, { error: `must be one of ${CATEGORIES.join(', ')}` })),
      color: hexColor().optional(),
    }),
    run: async (db, input) => {
      const workspace = await findWorkspace(db, input.workspace);
      const project = await findProject(db, workspace.id, input.project);
      return createStatus(db, { projectId: project.id, name: input.name, category: input.category, color: input.color ?? null });
    },
    describe: (s) => `Created status ${s.name} (${s.id}) at position ${s.order}`,
  }),

  'label create': define({
    usage: '--workspace S --name N --color #hex [--project P]',
    options: strings('workspace', 'name', 'color', 'project'),
    input: z.object({
      workspace: required(slugSchema),
      name: required(nameSchema),
      color: required(hexColor()),
      project: slugSchema.optional(),
    }),
    run: async (db, input) => {
      const workspace = await findWorkspace(db, input.workspace);
      const project = input.project ? await findProject(db, workspace.id, input.project) : null;
      return createLabel(db, { workspaceId: workspace.id, name: input.name, color: input.color, projectId: project?.id ?? null });
    },
    describe: (l) => `Created ${l.scope === 'workspace' ? 'workspace-wide' : 'project'} label ${l.name} (${l.id})`,
  }),

  'key create': define({
    usage: `--workspace S --name N --scopes ${TASK_SCOPES.join(',')}[,audit:read,requests:read,usage:read,webhook:manage] [--project P] [--expires ISO-8601]`,
    options: strings('workspace', 'name', 'scopes', 'project', 'expires'),
    input: z.object({
      workspace: required(slugSchema),
      name: required(keyCreateSchema.shape.name),
      scopes: required(scopesList),
      project: slugSchema.optional(),
      expires: isoDateTime.pipe(futureDate()).optional(),
    }),
    run: async (db, input, audit) => {
      const workspace = await findWorkspace(db, input.workspace);
      const project = input.project ? await findProject(db, workspace.id, input.project) : null;
      return createApiKey(
        db,
        workspace.id,
        { name: input.name, scopes: input.scopes, projectId: project?.id ?? null, expiresAt: input.expires ?? null },
        null,
        audit,
      );
    },
    describe: (k) => `Created key ${k.name} (${k.id}) with ${k.scopes.join(', ')}.\nKey (shown once, store it now): ${k.key}`,
  }),

  'key revoke': define({
    usage: '--workspace S --id ID',
    options: strings('workspace', 'id'),
    input: z.object({ workspace: required(slugSchema), id: required(z.string()) }),
    run: async (db, input, audit) => {
      const workspace = await findWorkspace(db, input.workspace);
      return revokeApiKey(db, workspace.id, input.id, audit);
    },
    describe: (k) => `Revoked key ${k.name} (${k.id})`,
  }),

  'key list': define({
    usage: '--workspace S',
    options: strings('workspace'),
    input: z.object({ workspace: required(slugSchema) }),
    run: async (db, input) => {
      const workspace = await findWorkspace(db, input.workspace);
      return { workspace: workspace.slug, keys: await listApiKeys(db, workspace.id) };
    },
    describe: ({ keys }) =>
      keys.length === 0
        ? 'No keys'
        : keys
            .map((k) => `${k.id}  ${k.hint}  ${k.state.padEnd(7)}  ${k.scopes.join(',')}  ${k.project?.slug ?? 'all projects'}  ${k.name}`)
            .join('\n'),
  }),

  'app list': define({
    usage: '--workspace S                                                      # connected apps (OAuth grants)',
    options: strings('workspace'),
    input: z.object({ workspace: required(slugSchema) }),
    run: async (db, input) => {
      const workspace = await findWorkspace(db, input.workspace);
      return { workspace: workspace.slug, apps: await listGrants(db, workspace.id) };
    },
    describe: ({ apps }) =>
      apps.length === 0
        ? 'No connected apps'
        : apps
            .map(
              (g) =>
                `${g.id}  ${g.state.padEnd(7)}  ${g.scopes.join(',')}  ${g.project?.slug ?? 'all projects'}  ${g.app}  approved by ${g.approvedBy ?? 'a removed user'}`,
            )
            .join('\n'),
  }),

  'app revoke': define({
    usage: '--workspace S --id ID',
    options: strings('workspace', 'id'),
    input: z.object({ workspace: required(slugSchema), id: required(z.string()) }),
    run: async (db, input, audit) => {
      const workspace = await findWorkspace(db, input.workspace);
      return revokeGrant(db, workspace.id, input.id, audit);
    },
    describe: (g) => `Revoked ${g.app} (${g.id}): its tokens answer 401 from now on`,
  }),

  'webhook create': define({
    usage: `--workspace S --url U [--events ${EVENT_TYPES.join(',')}] [--project P] [--previews]   # without --events: every project event; --previews: previews deliver to it too`,
    options: { ...strings('workspace', 'url', 'events', 'project'), ...flags('previews') },
    input: z.object({
      workspace: required(slugSchema),
      url: required(z.string()),
      events: z.string().optional(),
      project: slugSchema.optional(),
      previews: z.boolean().default(false),
    }),
    run: async (db, input, audit) => {
      const workspace = await findWorkspace(db, input.workspace);
      const project = input.project ? await findProject(db, workspace.id, input.project) : null;
      const events = parseEvents(
        (input.events ?? '')
          .split(',')
          .map((name) => name.trim())
          .filter(Boolean),
      );
      return createEndpoint(
        db,
        workspace.id,
        { url: input.url, events, projectId: project?.id ?? null, deliverOnPreviews: input.previews },
        audit,
      );
    },
    describe: (e) => `Created webhook ${e.id} to ${e.url}.\nSigning secret (shown once, store it now): ${e.secret}`,
  }),

  'webhook list': define({
    usage: '--workspace S',
    options: strings('workspace'),
    input: z.object({ workspace: required(slugSchema) }),
    run: async (db, input) => {
      const workspace = await findWorkspace(db, input.workspace);
      return { workspace: workspace.slug, webhooks: await listEndpoints(db, workspace.id) };
    },
    describe: ({ webhooks }) =>
      webhooks.length === 0
        ? 'No webhooks'
        : webhooks
            .map(
              (e) =>
                `${e.id}  ${e.disabledAt ? `disabled (${e.disabledReason})` : 'enabled'}  ${e.events.join(',') || 'all project events'}  ${e.url}${e.deliverOnPreviews ? '  (previews too)' : ''}`,
            )
            .join('\n'),
  }),

  'webhook delete': define({
    usage: '--workspace S --id ID',
    options: strings('workspace', 'id'),
    input: z.object({ workspace: required(slugSchema), id: required(z.string()) }),
    run: async (db, input, audit) => {
      const workspace = await findWorkspace(db, input.workspace);
      await deleteEndpoint(db, workspace.id, input.id, audit);
      return { id: input.id, deleted: true };
    },
    describe: (e) => `Deleted webhook ${e.id}`,
  }),

  'webhook deliveries': define({
    usage: '--workspace S --id ID   # the last 50, newest first',
    options: strings('workspace', 'id'),
    input: z.object({ workspace: required(slugSchema), id: required(z.string()) }),
    run: async (db, input) => {
      const workspace = await findWorkspace(db, input.workspace);
      return { id: input.id, deliveries: await listDeliveries(db, workspace.id, input.id) };
    },
    describe: ({ deliveries }) =>
      deliveries.length === 0
        ? 'No deliveries'
        : deliveries
            .map(
              (d) =>
                `${d.createdAt.toISOString()}  ${d.eventType.padEnd(18)}  ${d.status.padEnd(9)}  ${d.responseCode ?? '-'}  ${d.attempts} attempt(s)  ${d.lastError ?? ''}`,
            )
            .join('\n'),
  }),

  'audit list': define({
    usage: '--workspace S [--action A] [--limit N]                          # newest first; A an action or group (api_key)',
    options: strings('workspace', 'action', 'limit'),
    input: z.object({
      workspace: required(slugSchema),
      action: z.string().refine(isActionFilter, 'must be an action such as api_key.created, or a group such as api_key').optional(),
      limit: z
        .string()
        .regex(/^\d+$/, 'must be a whole number from 1 to 100')
        .transform(Number)
        .pipe(auditEventsQuery.shape.limit.unwrap())
        .optional(),
    }),
    run: async (db, input) => {
      const workspace = await findWorkspace(db, input.workspace);
      const { events } = await listAuditEvents(db, workspace.id, auditEventsQuery.parse({ action: input.action, limit: input.limit }));
      return {
        workspace: workspace.slug,
        events: events.map(({ id, occurredAt, action, actor, target, ip, userAgent, requestId }) => ({
          id,
          occurredAt,
          action,
          actor,
          target,
          ip,
          userAgent,
          requestId,
        })),
      };
    },
    describe: ({ events }) =>
      events.length === 0
        ? 'No audit events'
        : events
            .map(
              (e) =>
                `${e.occurredAt}  ${e.action.padEnd(31)}  ${e.actor.type}:${e.actor.name ?? e.actor.id ?? '-'}  ${e.target.type}:${e.target.name ?? e.target.id ?? '-'}  ${e.ip ?? ''}`,
            )
            .join('\n'),
  }),
  'requests list': define({
    usage: '--workspace S [--key ID] [--status CODE|2xx|4xx|5xx] [--request-id ID] [--idempotency-key K] [--limit N]   # newest first',
    options: strings('workspace', 'key', 'status', 'request-id', 'idempotency-key', 'limit'),
    input: z.object({
      workspace: required(slugSchema),
      key: uuid().optional(),
      status: statusFilter.optional(),
      'request-id': uuid().optional(),
      'idempotency-key': z.string().min(1, 'must not be empty').optional(),
      limit: requestsLimit.optional(),
    }),
    run: async (db, input) => {
      const workspace = await findWorkspace(db, input.workspace);
      const { requests } = await listRequests(db, workspace.id, {
        principalId: input.key,
        status: input.status,
        requestId: input['request-id'],
        idempotencyKey: input['idempotency-key'],
        limit: input.limit ?? 50,
      });
      return { workspace: workspace.slug, requests };
    },
    describe: ({ requests }) =>
      requests.length === 0
        ? 'No requests'
        : requests
            .map(
              (r) =>
                `${r.occurredAt}  ${r.status}  ${r.method} ${r.path}  ${r.durationMs} ms  ${r.requestId}  ${r.keyId ?? `app ${r.appId}`}${r.message ? `  ${r.message}` : ''}`,
            )
            .join('\n'),
  }),

  usage: define({
    usage: '--workspace S [--key ID] [--since ISO]                       # per hour; since 24 hours ago unless given',
    options: strings('workspace', 'key', 'since'),
    input: z.object({ workspace: required(slugSchema), key: uuid().optional(), since: isoDateTime.optional() }),
    run: async (db, input) => {
      const workspace = await findWorkspace(db, input.workspace);
      const report = await usageReport(db, workspace.id, { granularity: 'hour', since: input.since, principalId: input.key });
      const { '2xx': ok, '4xx': refused, '429': limited, '5xx': failed } = report.total;
      return { workspace: workspace.slug, total: { '2xx': ok, '4xx': refused, '429': limited, '5xx': failed }, buckets: report.buckets };
    },
    describe: ({ total, buckets }) =>
      [
        `2xx ${total['2xx']}  4xx ${total['4xx']}  429 ${total['429']}  5xx ${total['5xx']}`,
        ...buckets.map(
          (b) =>
            `${b.start}  ${b.requests} requests  2xx ${b['2xx']}  4xx ${b['4xx']}  429 ${b['429']}  5xx ${b['5xx']}  p50 ${b.p50Ms} ms  p95 ${b.p95Ms} ms`,
        ),
      ].join('\n'),
  }),
};
