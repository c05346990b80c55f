import { generateOpenApiDocument, type OpenAPIObject } from 'trpc-to-openapi';
import { env } from '../env';
import {
  HEADERS_TOO_LARGE,
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENCY_KEY_IN_PROGRESS,
  IDEMPOTENCY_KEY_REUSED,
  INTERNAL_ERROR_MESSAGE,
  INVALID_KEY,
  missingScope,
  outsideProjectScope,
  PROJECT_NOT_FOUND,
  SERVICE_UNAVAILABLE,
  TARGET_TOO_LONG,
  TOO_MANY_REQUESTS,
  WORKSPACE_KEY_NEEDED,
} from './messages';
import { procedureMetas, type PublicMeta } from './operation';
import { publicRouter } from './router';
import { MAX_FILENAME, MAX_MIME_TYPE, MAX_UPLOAD_BYTES } from '../schemas/attachment';
import { MAX_INT4 } from '../schemas/common';
import { MAX_EVENT_SUBTASKS, MAX_EXTERNAL_ID, taskSchema } from '../schemas/task';
import { MAX_SLUG } from '../schemas/workspace';
import { WINDOW_MS } from '../ratelimit/limiter';
import { SCOPE_DESCRIPTIONS } from '../keys/scopes';
import { RESOURCE_PATHS } from '../oauth/access-token';
import { OAUTH_BASE_PATH } from '../oauth/origin';
import { errorSchema } from '../schemas/common';
import { TEST_EVENT_TYPE, WORKSPACE_EVENT_TYPES } from '../webhooks/events';

const description = (perMinute: number) => `Read and write the tasks, comments and attachments of a workspace's projects.

Authenticate every request with an API key, as \`Authorization: Bearer <key>\` (recommended) or \`X-API-Key: <key>\`.
Keys look like \`tk_\` followed by 40 lowercase hex characters, the last 8 a CRC32 checksum of the rest, and are created
in the workspace settings. Apps may instead sign in with OAuth 2.1 (the \`oauth2\` scheme) and send their access token the same way.

Every error has the body \`{statusCode, message}\`. Each key may make ${perMinute} requests per minute (sliding window);
every keyed response carries \`X-RateLimit-Limit\`, \`X-RateLimit-Remaining\` and \`X-RateLimit-Reset\`
(Unix seconds), and the IETF fields (draft-ietf-httpapi-ratelimit-headers) \`RateLimit-Policy: "per-key";q=${perMinute};w=60\`
and \`RateLimit: "per-key";r=<remaining>;t=<seconds to reset>\`; a 429 carries \`Retry-After\` in seconds. While the
limiter's store is unreachable requests are served without limits and the remaining figures
(\`X-RateLimit-Remaining\`, \`X-RateLimit-Reset\`, \`RateLimit\`) are left out.

AI agents can use the same operations as the tools of this server's MCP server at \`/v1/mcp\` (Streamable HTTP), with the
same keys, scopes and rate limit, or signing in with OAuth as Claude's and ChatGPT's connectors do:
\`claude mcp add --transport http task-api <app URL>/v1/mcp\`. The guide's MCP page, docs/mcp.md, shows the setup for Claude, ChatGPT, Cursor and VS Code.

Every POST and PATCH accepts an \`Idempotency-Key\` header (1 to 255 printable ASCII characters, a UUID for instance), so
that a request whose answer was lost can be sent again safely. The first request with a key is processed and its answer
kept for 24 hours for that API key; the same request sent again with the key gets that answer again, unchanged, with
\`Idempotent-Replayed: true\`, and nothing is created or changed twice. Another request with a key already used is
refused with 422, and one sent while the first is still being processed with 409 and \`Retry-After: 1\`. Answers a retry
might change (429, 5xx) are not kept. A replay is counted against the rate limit and needs the same scopes.

This interface is in beta: paths and shapes may change before 1.0; breaking changes are announced first.`;

/** The public API's version, as its OpenAPI document and its MCP server state it. */
export const API_VERSION = '0.0.1';

const TAGS = [
  { name: 'Lookups', description: 'The statuses, labels and members a task can refer to.' },
  { name: 'Tasks', description: 'List, read, create, update and delete tasks.' },
  { name: 'Comments', description: "A task's comments, oldest first." },
  { name: 'Attachments', description: "A task's files, up to 10 MB each, downloaded through links valid for an hour." },
  { name: 'Audit log', description: "Who changed the workspace's keys, apps, webhooks and members, and who signed in: kept 400 days." },
  {
    name: 'Requests',
    description: "The request log and usage of the workspace's keys and apps; every key and app reads its own last 24 hours.",
  },
  { name: 'Workspace', description: 'Who a key or app is, and the projects it may reach: where an integration starts.' },
  {
    name: 'Webhooks',
    description:
      'Endpoints an integration subscribes and unsubscribes itself (scope `webhook:manage`), their deliveries, and the events ' +
      'the server sends them, signed to the Standard Webhooks specification.',
  },
];

type Header = { description: string; schema: Record<string, unknown> };
type Response = { description: string; headers?: Record<string, { $ref: string }>; content?: Record<string, unknown> };
type Operation = { responses: Record<string, Response>; requestBody?: unknown; security?: unknown; parameters?: unknown[] };

// Unix seconds up to the end of year 9999, as every time this API writes.
const LAST_UNIX_SECOND = 253_402_300_799;
// Node's bound on a request's whole head; a header value is shorter still.
const MAX_HEAD_BYTES = 16 * 1024;

const HEADERS: Record<string, Header> = {
  'X-Request-Id': { description: 'Identifies the request in the server log', schema: { type: 'string', format: 'uuid', maxLength: 36 } },
  'Access-Control-Allow-Origin': {
    description: "Any origin may call, never with credentials (keys travel in headers, not cookies), as GitHub's API answers",
    schema: { type: 'string', const: '*' },
  },
  'X-RateLimit-Limit': {
    description:
      "Requests allowed per minute under the limit `RateLimit-Policy` names: the key's (`per-key`), or for a request without a " +
      "valid key its address's (`per-address`); an answer given before the key is read (414, 431) states the address's " +
      'limit without counting the request',
    schema: { type: 'integer', format: 'int32', minimum: 1, maximum: MAX_INT4 },
  },
  'X-RateLimit-Remaining': {
    description: "Requests left in the current window; absent while the limiter's store is unreachable, and before the key is read",
    schema: { type: 'integer', format: 'int32', minimum: 0, maximum: MAX_INT4 },
  },
  'X-RateLimit-Reset': {
    description:
      "Unix time (seconds) at which the current window ends; absent while the limiter's store is unreachable, and before the key is read",
    schema: { type: 'integer', format: 'int64', minimum: 0, maximum: LAST_UNIX_SECOND },
  },
  'RateLimit-Policy': {
    description:
      'The limit as draft-ietf-httpapi-ratelimit-headers writes it: `"per-key";q=<requests>;w=<seconds>` (or `"per-address"`). ' +
      'Beside it the server sends the draft\'s `RateLimit: "per-key";r=<requests left>;t=<seconds to the window\'s end>`, the ' +
      'figures of `X-RateLimit-Remaining` and `X-RateLimit-Reset` again (absent where they are); it is not listed on each ' +
      "answer, where OWASP's ruleset admits one family of rate-limit fields",
    schema: { type: 'string', maxLength: 100, pattern: '^"per-(key|address)";q=\\d+;w=\\d+$' },
  },
  'Retry-After': {
    description: 'Seconds to wait before retrying',
    schema: { type: 'integer', format: 'int32', minimum: 1, maximum: WINDOW_MS / 1000 },
  },
  'WWW-Authenticate': {
    description:
      'On a 401, `Bearer resource_metadata="<metadata URL>"` (RFC 9728); on a 403 to an app\'s token lacking a scope, ' +
      '`Bearer error="insufficient_scope", scope="<scope>", …`',
    schema: { type: 'string', maxLength: 2_000 },
  },
  ETag: {
    description: 'Strong entity tag of the task as answered; it changes whenever anything in the answer changes',
    schema: { type: 'string', maxLength: 100 },
  },
  'Idempotent-Replayed': {
    description: '`true` when the answer is the one stored for this `Idempotency-Key`, sent again',
    schema: { type: 'string', const: 'true' },
  },
};

const PRECONDITIONS = {
  'If-None-Match': {
    name: 'If-None-Match',
    in: 'header',
    required: false,
    description: 'ETags of copies the client holds (or `*`), compared weakly: if the task still has one, 304 without a body',
    schema: { type: 'string', maxLength: MAX_HEAD_BYTES, example: '"3q2-7wEjZl4PjUp2Jd_WdtQaR9w1pqLy"' },
  },
  'If-Match': {
    name: 'If-Match',
    in: 'header',
    required: false,
    description:
      'ETags the task must still have (or `*`: any existing task), compared strongly; else 412 and nothing changes. ' +
      'The comparison and the write are one step: of two writes sent with one ETag, one wins and the other gets 412.',
    schema: { type: 'string', maxLength: MAX_HEAD_BYTES, example: '"3q2-7wEjZl4PjUp2Jd_WdtQaR9w1pqLy"' },
  },
};
const IDEMPOTENCY_KEY_PARAMETER = {
  in: 'header',
  name: IDEMPOTENCY_KEY_HEADER,
  required: false,
  description:
    'Makes the request safe to retry: sent again with the same key, the same request gets the first answer (kept 24 hours per API key) instead of being processed twice.',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7E]+$' },
  example: '7f0c2a4e-3b9d-4c1e-9a8f-2d6b5e4c3a10',
};
const headerRefs = (...names: string[]) => Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]));
const RATE_LIMIT = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'RateLimit-Policy'];
// Every answer carries its request's id and CORS's allowed origin.
const EVERY = ['X-Request-Id', 'Access-Control-Allow-Origin'];

let cached: { key: string; document: OpenAPIObject } | undefined;

/**
 * The OpenAPI 3.1 document, generated from the procedures' zod schemas and their
 * metadata. The library describes errors in its own shape; they are rewritten
 * here to ours, every status an operation can answer with the messages the server
 * sends (messages.ts), and the success codes and headers the handlers really send.
 */
export function openApiDocument(): OpenAPIObject {
  const { appUrl, rateLimitPerMinute } = env();
  const key = `${appUrl} ${rateLimitPerMinute}`;
  if (cached?.key === key) return cached.document;
  const document = generateOpenApiDocument<PublicMeta>(publicRouter, {
    title: 'Task Management Public API',
    description: description(rateLimitPerMinute),
    version: API_VERSION,
    contact: { name: 'Task API', url: `${appUrl}/docs` },
    license: { name: 'Proprietary', url: `${appUrl}/docs` },
    // Absolute, so that mock servers, proxies and generated clients need no editing.
    baseUrl: `${appUrl}/v1/public`,
    securitySchemes: {
      bearerAuth: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <key>' },
      apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'X-API-Key: <key>' },
      oauth2: oauthScheme(appUrl),
    },
    defs: { ApiError: errorSchema },
  });
  const metaByPath = new Map(
    [...procedureMetas(publicRouter).values()].map((meta) => [`${meta.openapi?.method.toLowerCase()} ${meta.openapi?.path}`, meta]),
  );
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const [method, operation] of Object.entries(item as Record<string, Operation>)) {
      const meta = metaByPath.get(`${method} ${path}`);
      if (!meta || meta.scope === undefined) throw new Error(`No scope for ${method.toUpperCase()} ${path}`);
      const writes = method === 'post' || method === 'patch';
      operation.responses = responses(operation, meta, writes);
      if (meta.precondition) (operation.parameters ??= []).push(PRECONDITIONS[meta.precondition]);
      if (writes) operation.parameters = [...(operation.parameters ?? []), IDEMPOTENCY_KEY_PARAMETER];
      // A key may be sent in either header, or an app's access token; OpenAPI lists alternatives as separate requirements.
      operation.security = [{ bearerAuth: [] }, { apiKeyHeader: [] }, { oauth2: meta.scope ? [meta.scope] : [] }];
      if (method === 'post' && path.endsWith('/attachments')) operation.requestBody = uploadBody;
      if (meta.streamed) operation.responses['200']!.content = streamedContent(meta.streamed);
    }
  }
  // The library's own error shapes are referenced no more: only ours is described.
  const components = (document.components ??= {});
  for (const name of Object.keys(components.schemas ?? {})) if (name.startsWith('error.')) delete components.schemas![name];
  components.headers = HEADERS;
  document.tags = TAGS;
  // Public: integrations anywhere call it (OWASP API9, inventory).
  document.servers = (document.servers ?? []).map((server) => ({ ...server, 'x-internal': false }));
  Object.assign(document, { webhooks: webhooksSection() });
  Object.assign(document, { 'x-ratelimit': { limit: rateLimitPerMinute, window: '60s', per: 'API key', algorithm: 'sliding window' } });
  cached = { key, document };
  return document;
}

/**
 * Apps sign in instead of holding a key: the authorization code flow with PKCE (S256)
 * of this server's own authorization server (server/oauth), discoverable from
 * `/.well-known/oauth-protected-resource/v1/public`. Tokens are sent as `Authorization: Bearer`.
 */
function oauthScheme(appUrl: string) {
  const origin = new URL(appUrl).origin;
  return {
    type: 'oauth2' as const,
    description:
      'OAuth 2.1 authorization code with PKCE (S256), for apps a workspace admin approves; clients may register themselves ' +
      `(RFC 7591, ${origin}${OAUTH_BASE_PATH}/oauth2/register). Ask for the resource \`${origin}${RESOURCE_PATHS.rest}\` (RFC 8707). ` +
      'Access tokens last an hour; refresh tokens rotate. A 401 names the protected resource metadata (RFC 9728) in ' +
      '`WWW-Authenticate`; a token lacking a scope gets 403 `insufficient_scope` naming it. Access tokens are opaque ' +
      '(`tka_` and 32 characters, only their hash stored), not JWTs, so none of the JWT pitfalls of RFC8725 arise for them.',
    flows: {
      authorizationCode: {
        authorizationUrl: `${origin}${OAUTH_BASE_PATH}/oauth2/authorize`,
        tokenUrl: `${origin}${OAUTH_BASE_PATH}/oauth2/token`,
        refreshUrl: `${origin}${OAUTH_BASE_PATH}/oauth2/token`,
        scopes: SCOPE_DESCRIPTIONS,
      },
    },
  };
}

function responses(operation: Operation, meta: PublicMeta, idempotent: boolean): Record<string, Response> {
  const result: Record<string, Response> = {};
  const replayed = idempotent ? ['Idempotent-Replayed'] : [];
  for (const [code, response] of Object.entries(operation.responses)) {
    if (Number(code) >= 400) continue;
    const headers = headerRefs(...EVERY, ...RATE_LIMIT, ...(meta.etag ? ['ETag'] : []), ...replayed);
    result[String(meta.successStatus ?? Number(code))] = { ...response, headers };
  }
  if (meta.precondition === 'If-None-Match') {
    result['304'] = {
      description: 'Not Modified: the task still has an ETag that `If-None-Match` names. No body.',
      headers: headerRefs(...EVERY, ...RATE_LIMIT, 'ETag'),
    };
  }
  const errors = meta.errors ?? {};
  const keyed = [...EVERY, ...RATE_LIMIT];
  if (errors[400]) result['400'] = errorResponse(400, errors[400], keyed);
  // Counted against its address's limit for bad keys, which it states.
  result['401'] = errorResponse(401, [INVALID_KEY], [...keyed, 'WWW-Authenticate']);
  const refusals = meta.projectKeys ? [] : meta.workspace ? [WORKSPACE_KEY_NEEDED] : [outsideProjectScope('<slug>')];
  if (meta.scope) result['403'] = errorResponse(403, [missingScope(meta.scope), ...refusals], [...keyed, 'WWW-Authenticate']);
  const notFound = [...(meta.workspace ? [] : [PROJECT_NOT_FOUND]), ...(errors[404] ?? [])];
  if (notFound.length > 0) result['404'] = errorResponse(404, notFound, keyed);
  if (errors[408]) result['408'] = errorResponse(408, errors[408], keyed, 'The body did not arrive whole in time');
  if (errors[412]) result['412'] = errorResponse(412, errors[412], keyed, 'Precondition Failed: `If-Match` names no ETag the task has');
  if (idempotent || errors[409]) {
    const inProgress = idempotent ? [IDEMPOTENCY_KEY_IN_PROGRESS] : [];
    const note = idempotent
      ? 'While the first request with this `Idempotency-Key` is still being processed, retry after the seconds in `Retry-After`'
      : undefined;
    result['409'] = errorResponse(409, [...(errors[409] ?? []), ...inProgress], idempotent ? [...keyed, 'Retry-After'] : keyed, note);
  }
  if (errors[413]) result['413'] = errorResponse(413, errors[413], keyed);
  result['414'] = errorResponse(
    414,
    [TARGET_TOO_LONG],
    keyed,
    'The path and query together are too long; answered before the key is checked',
  );
  if (errors[415]) result['415'] = errorResponse(415, errors[415], keyed);
  if (idempotent) {
    const note = 'The `Idempotency-Key` was sent before with another method, path or body';
    result['422'] = errorResponse(422, [IDEMPOTENCY_KEY_REUSED], keyed, note);
  }
  result['429'] = errorResponse(429, [TOO_MANY_REQUESTS], [...keyed, 'Retry-After']);
  result['431'] = errorResponse(
    431,
    [HEADERS_TOO_LARGE],
    keyed,
    'The request head is over 16 KiB; sent by the self-hosted server, while on Vercel the platform answers with its own limit',
  );
  result['500'] = errorResponse(500, [INTERNAL_ERROR_MESSAGE], EVERY, 'The details are logged with the X-Request-Id');
  result['503'] = errorResponse(
    503,
    [SERVICE_UNAVAILABLE],
    [...EVERY, 'Retry-After'],
    'A dependency is unreachable, or the server is busy',
  );
  return result;
}

/** An error response listing each message the server sends with this status, as an example of its own. */
function errorResponse(status: number, messages: string[], headers: string[], note?: string): Response {
  const listed = messages.map((message) => `\`${message}\``).join(', ');
  return {
    description: note ? `${listed}. ${note}.` : listed,
    headers: headerRefs(...headers),
    content: {
      'application/json': {
        schema: { $ref: '#/components/schemas/ApiError' },
        examples: Object.fromEntries(messages.map((message, i) => [exampleName(message, i), { value: { statusCode: status, message } }])),
      },
    },
  };
}

function exampleName(message: string, index: number): string {
  const words = message
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 40);
  return `${words || 'error'}${index > 0 ? `-${index}` : ''}`;
}

const uploadBody = {
  required: true,
  content: {
    'multipart/form-data': {
      schema: {
        type: 'object',
        required: ['file'],
        properties: {
          file: {
            type: 'string',
            format: 'binary',
            maxLength: MAX_UPLOAD_BYTES,
            description: `The file, at most ${MAX_UPLOAD_BYTES} bytes`,
          },
        },
      },
    },
  },
};

/**
 * A stream's media types, each a text whose lines the description explains: no JSON value,
 * so no JSON type or length is claimed for it.
 */
function streamedContent(streamed: NonNullable<PublicMeta['streamed']>) {
  return Object.fromEntries(Object.entries(streamed).map(([type, description]) => [type, { schema: { description } }]));
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const UUID = { type: 'string', format: 'uuid', maxLength: 36 };
const DATE_TIME = { type: 'string', format: 'date-time', maxLength: 24 };
const idAndSlug = {
  type: 'object',
  required: ['id', 'slug'],
  properties: { id: UUID, slug: { type: 'string', maxLength: MAX_SLUG } },
};
const taskRef = {
  type: 'object',
  required: ['id', 'externalId'],
  properties: { id: UUID, externalId: { type: 'string', maxLength: MAX_EXTERNAL_ID, example: 'WEB-12' } },
};
// The Task fields a `task.updated` may name: every one but `updatedAt`, which every change moves.
const CHANGED_FIELDS = Object.keys(taskSchema.shape).filter((field) => field !== 'updatedAt');

/** The events the server POSTs to webhook endpoints (server/webhooks/events.ts), as OpenAPI 3.1 describes callbacks it makes. */
function webhooksSection() {
  const signatureHeaders = [
    ['webhook-id', 'One per event and endpoint, the same on every retry: deduplicate on it.', 'msg_2f0c4d1e8a9b4c7d9e0f1a2b3c4d5e6f'],
    ['webhook-timestamp', 'Unix seconds when the attempt was signed.', '1795473269'],
    [
      'webhook-signature',
      '`v1,<base64 HMAC-SHA256 of id.timestamp.body>` under the endpoint secret `whsec_<base64>`; for 24 hours after a rotation a second, under the secret it replaced, space-separated: verify with either.',
      'v1,cHTvpslqSOJqcTdFRHoxUjejKe0BYA+cNEEifytA0zc=',
    ],
  ].map(([name, description, example]) => ({
    name,
    in: 'header',
    required: true,
    description,
    // Two signatures at most (the current secret's and, for a day after a rotation, the one it replaced).
    schema: { type: 'string', maxLength: name === 'webhook-signature' ? 200 : 40 },
    example,
  }));
  const events: [string, string, Record<string, unknown>, string[]][] = [
    ['task.created', 'A task was created.', { task: ref('Task') }, ['task']],
    [
      'task.updated',
      'A task changed; one event per change however many fields it set.',
      {
        task: ref('Task'),
        changes: {
          type: 'array',
          items: { type: 'string', enum: CHANGED_FIELDS },
          maxItems: CHANGED_FIELDS.length,
          description: 'The Task fields whose values changed',
          example: ['priority', 'title'],
        },
      },
      ['task', 'changes'],
    ],
    [
      'task.deleted',
      'A task was deleted, with the subtasks listed.',
      { task: taskRef, subtasks: { type: 'array', items: taskRef, maxItems: MAX_EVENT_SUBTASKS } },
      ['task', 'subtasks'],
    ],
    ['comment.created', 'A comment was posted.', { comment: ref('Comment'), task: taskRef }, ['comment', 'task']],
    [
      'attachment.created',
      'A file was attached; the attachment comes without its download URL.',
      {
        attachment: {
          type: 'object',
          description: 'The Attachment without `url`',
          required: ['id', 'filename', 'mimeType', 'size', 'createdAt'],
          properties: {
            id: UUID,
            filename: { type: 'string', maxLength: MAX_FILENAME },
            mimeType: { type: 'string', maxLength: MAX_MIME_TYPE },
            size: { type: 'integer', format: 'int32', minimum: 0, maximum: MAX_UPLOAD_BYTES },
            createdAt: DATE_TIME,
          },
        },
        task: taskRef,
      },
      ['attachment', 'task'],
    ],
    [
      'audit.event',
      "An event of the workspace's audit log; only to endpoints of every project that chose this type by name.",
      { event: ref('AuditEvent') },
      ['event'],
    ],
    [
      TEST_EVENT_TYPE,
      'Sent to one endpoint when asked for (Send a test event), whatever types it chose.',
      { webhook: { type: 'object', required: ['id'], properties: { id: UUID } } },
      ['webhook'],
    ],
  ];
  // A workspace's events name no project; a project's name theirs.
  const projectPart = (type: string) =>
    [...WORKSPACE_EVENT_TYPES, TEST_EVENT_TYPE].includes(type as typeof TEST_EVENT_TYPE) ? [] : ['project'];
  return Object.fromEntries(
    events.map(([type, summary, data, required]) => [
      type,
      {
        post: {
          operationId: `webhook.${type}`,
          summary,
          description:
            'Retried after 5 s, 1 min, 10 min, 1 h, 6 h and 12 h until your endpoint answers 2xx within 10 s; 410 disables the endpoint.',
          tags: ['Webhooks'],
          security: [],
          parameters: signatureHeaders,
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['type', 'timestamp', 'data'],
                  properties: {
                    type: { type: 'string', const: type },
                    timestamp: DATE_TIME,
                    data: {
                      type: 'object',
                      required: ['workspace', ...projectPart(type), ...required],
                      properties: {
                        workspace: idAndSlug,
                        ...Object.fromEntries(projectPart(type).map((name) => [name, idAndSlug])),
                        ...data,
                      },
                    },
                  },
                },
              },
            },
          },
          responses: {
            '200': { description: 'Any 2xx: delivered' },
            '410': { description: 'Gone: the endpoint is disabled at once' },
          },
        },
      },
    ]),
  );
}
