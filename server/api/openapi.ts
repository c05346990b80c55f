import { generateOpenApiDocument, type OpenAPIObject } from 'trpc-to-openapi';
import { env } from '../env';
import {
  INTERNAL_ERROR_MESSAGE,
  INVALID_KEY,
  missingScope,
  outsideProjectScope,
  PROJECT_NOT_FOUND,
  SERVICE_UNAVAILABLE,
  TOO_MANY_REQUESTS,
} from './messages';
import { procedureMetas, type PublicMeta } from './operation';
import { publicRouter } from './router';
import { MAX_UPLOAD_BYTES } from '../schemas/attachment';
import { errorSchema } from '../schemas/common';

const description = (perMinute: number) => `Read and write the tasks, comments and attachments of a workspace's projects.

Authenticate every request with an API key, as \`Authorization: Bearer <key>\` (recommended) or \`X-API-Key: <key>\`.
Keys look like \`tk_\` followed by 40 lowercase hex characters, the last 8 a CRC32 checksum of the rest, and are created
in the workspace settings.

Every error has the body \`{statusCode, message}\`. Each key may make ${perMinute} requests per minute (sliding window);
every keyed response carries \`X-RateLimit-Limit\`, \`X-RateLimit-Remaining\` and \`X-RateLimit-Reset\`
(Unix seconds), and a 429 carries \`Retry-After\` in seconds.

This interface is in beta: paths and shapes may change before 1.0; breaking changes are announced first.`;

const TAGS = [
  { name: 'Lookups', description: 'The statuses, labels and members a task can refer to.' },
  { name: 'Tasks', description: 'List, read, create, update and delete tasks.' },
  { name: 'Comments', description: "A task's comments, oldest first." },
  { name: 'Attachments', description: "A task's files, up to 10 MB each, downloaded through links valid for an hour." },
  { name: 'Webhooks', description: 'Events the server sends to your endpoints, signed to the Standard Webhooks specification.' },
];

type Header = { description: string; schema: { type: 'integer' | 'string' } };
type Response = { description: string; headers?: Record<string, { $ref: string }>; content?: Record<string, unknown> };
type Operation = { responses: Record<string, Response>; requestBody?: unknown; security?: unknown };

const HEADERS: Record<string, Header> = {
  'X-Request-Id': { description: 'Identifies the request in the server log', schema: { type: 'string' } },
  'X-RateLimit-Limit': { description: 'Requests allowed per minute for this key', schema: { type: 'integer' } },
  'X-RateLimit-Remaining': { description: 'Requests left in the current window', schema: { type: 'integer' } },
  'X-RateLimit-Reset': { description: 'Unix time (seconds) at which the current window ends', schema: { type: 'integer' } },
  'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'integer' } },
  'WWW-Authenticate': { description: 'The authentication scheme to use: `Bearer`', schema: { type: 'string' } },
};
const headerRefs = (...names: string[]) => Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]));
const RATE_LIMIT = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'];

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
    version: '0.0.1',
    contact: { name: 'Task API', url: `${appUrl}/docs` },
    license: { name: 'Proprietary', url: `${appUrl}/docs` },
    // Absolute, so that mock servers, proxies and generated clients need no editing.
    baseUrl: `${appUrl}/v1/public`,
    securitySchemes: {
      bearerAuth: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <key>' },
      apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'X-API-Key: <key>' },
    },
    defs: { ApiError: errorSchema },
  });
  const metaByPath = new Map(
    [...procedureMetas(publicRouter).values()].map((meta) => [`${meta.openapi?.method.toLowerCase()} ${meta.openapi?.path}`, meta]),
  );
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const [method, operation] of Object.entries(item as Record<string, Operation>)) {
      const meta = metaByPath.get(`${method} ${path}`);
      if (!meta?.scope) throw new Error(`No scope for ${method.toUpperCase()} ${path}`);
      operation.responses = responses(operation, meta);
      // A key may be sent in either header; OpenAPI lists alternatives as separate requirements.
      operation.security = [{ bearerAuth: [] }, { apiKeyHeader: [] }];
      if (method === 'post' && path.endsWith('/attachments')) operation.requestBody = uploadBody;
    }
  }
  // The library's own error shapes are referenced no more: only ours is described.
  const components = (document.components ??= {});
  for (const name of Object.keys(components.schemas ?? {})) if (name.startsWith('error.')) delete components.schemas![name];
  components.headers = HEADERS;
  document.tags = TAGS;
  Object.assign(document, { webhooks: webhooksSection() });
  Object.assign(document, { 'x-ratelimit': { limit: rateLimitPerMinute, window: '60s', per: 'API key', algorithm: 'sliding window' } });
  cached = { key, document };
  return document;
}

function responses(operation: Operation, meta: PublicMeta): Record<string, Response> {
  const result: Record<string, Response> = {};
  for (const [code, response] of Object.entries(operation.responses)) {
    if (Number(code) >= 400) continue;
    result[String(meta.successStatus ?? Number(code))] = { ...response, headers: headerRefs('X-Request-Id', ...RATE_LIMIT) };
  }
  const errors = meta.errors ?? {};
  const keyed = ['X-Request-Id', ...RATE_LIMIT];
  if (errors[400]) result['400'] = errorResponse(400, errors[400], keyed);
  result['401'] = errorResponse(401, [INVALID_KEY], ['X-Request-Id', 'WWW-Authenticate']);
  result['403'] = errorResponse(403, [missingScope(meta.scope!), outsideProjectScope('<slug>')], keyed);
  result['404'] = errorResponse(404, [PROJECT_NOT_FOUND, ...(errors[404] ?? [])], keyed);
  if (errors[413]) result['413'] = errorResponse(413, errors[413], keyed);
  if (errors[415]) result['415'] = errorResponse(415, errors[415], keyed);
  result['429'] = errorResponse(429, [TOO_MANY_REQUESTS], [...keyed, 'Retry-After']);
  result['500'] = errorResponse(500, [INTERNAL_ERROR_MESSAGE], ['X-Request-Id'], 'The details are logged with the X-Request-Id');
  result['503'] = errorResponse(
    503,
    [SERVICE_UNAVAILABLE],
    ['X-Request-Id', 'Retry-After'],
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
          file: { type: 'string', format: 'binary', description: `The file, at most ${MAX_UPLOAD_BYTES} bytes` },
        },
      },
    },
  },
};

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const idAndSlug = {
  type: 'object',
  required: ['id', 'slug'],
  properties: { id: { type: 'string', format: 'uuid' }, slug: { type: 'string' } },
};
const taskRef = {
  type: 'object',
  required: ['id', 'externalId'],
  properties: { id: { type: 'string', format: 'uuid' }, externalId: { type: 'string', example: 'WEB-12' } },
};

/** The events the server POSTs to webhook endpoints (server/webhooks/events.ts), as OpenAPI 3.1 describes callbacks it makes. */
function webhooksSection() {
  const signatureHeaders = [
    ['webhook-id', 'One per event and endpoint, the same on every retry: deduplicate on it.', 'msg_2f0c4d1e8a9b4c7d9e0f1a2b3c4d5e6f'],
    ['webhook-timestamp', 'Unix seconds when the attempt was signed.', '1795473269'],
    [
      'webhook-signature',
      '`v1,<base64 HMAC-SHA256 of id.timestamp.body>` under the endpoint secret `whsec_<base64>`.',
      'v1,cHTvpslqSOJqcTdFRHoxUjejKe0BYA+cNEEifytA0zc=',
    ],
  ].map(([name, description, example]) => ({ name, in: 'header', required: true, description, schema: { type: 'string' }, example }));
  const events: [string, string, Record<string, unknown>, string[]][] = [
    ['task.created', 'A task was created.', { task: ref('Task') }, ['task']],
    [
      'task.updated',
      'A task changed; one event per change however many fields it set.',
      {
        task: ref('Task'),
        changes: {
          type: 'array',
          items: { type: 'string' },
          description: 'The Task fields whose values changed',
          example: ['priority', 'title'],
        },
      },
      ['task', 'changes'],
    ],
    [
      'task.deleted',
      'A task was deleted, with the subtasks listed.',
      { task: taskRef, subtasks: { type: 'array', items: taskRef } },
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
            id: { type: 'string', format: 'uuid' },
            filename: { type: 'string' },
            mimeType: { type: 'string' },
            size: { type: 'integer' },
            createdAt: { type: 'string', format: 'date-time' },
          },
        },
        task: taskRef,
      },
      ['attachment', 'task'],
    ],
  ];
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
                    timestamp: { type: 'string', format: 'date-time' },
                    data: {
                      type: 'object',
                      required: ['workspace', 'project', ...required],
                      properties: { workspace: idAndSlug, project: idAndSlug, ...data },
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
