import { generateOpenApiDocument, type OpenAPIObject } from 'trpc-to-openapi';
import { publicRouter } from './router';
import { procedureMetas, type PublicMeta } from './operation';
import { MAX_UPLOAD_BYTES } from './schemas/attachment';
import { errorSchema } from './schemas/common';

const DESCRIPTION = `Read and write the tasks, comments and attachments of a workspace's projects.

Authenticate every request with an API key, as \`Authorization: Bearer <key>\` (recommended) or \`X-API-Key: <key>\`.
Keys look like \`tk_\` followed by 40 lowercase hex characters, the last 8 a CRC32 checksum of the rest, and are created
in the workspace settings.

Every error has the body \`{statusCode, message}\`. Each key may make 60 requests per minute (sliding window);
every keyed response carries \`X-RateLimit-Limit\`, \`X-RateLimit-Remaining\` and \`X-RateLimit-Reset\`
(Unix seconds), and a 429 carries \`Retry-After\` in seconds.

This interface is in beta: paths and shapes may change before 1.0; breaking changes are announced first.`;

type Operation = {
  responses: Record<string, { description: string; headers?: Record<string, unknown>; content?: Record<string, { schema: unknown }> }>;
  requestBody?: unknown;
};

const integerHeader = (description: string) => ({ description, schema: { type: 'integer' } });
const rateLimitHeaders = {
  'X-RateLimit-Limit': integerHeader('Requests allowed per minute for this key'),
  'X-RateLimit-Remaining': integerHeader('Requests left in the current window'),
  'X-RateLimit-Reset': integerHeader('Unix time (seconds) at which the current window ends'),
};

let cached: OpenAPIObject | undefined;

/**
 * The OpenAPI 3.1 document, generated from the procedures' zod schemas. The
 * library describes errors in its own shape; they are rewritten here to ours,
 * with the success codes and headers our handlers really send.
 */
export function openApiDocument(): OpenAPIObject {
  if (cached) return cached;
  const document = generateOpenApiDocument<PublicMeta>(publicRouter, {
    title: 'Task Management Public API',
    description: DESCRIPTION,
    version: '0.0.1',
    // Relative, so the document is right on every deployment and preview that serves it.
    baseUrl: '/v1/public',
    securitySchemes: {
      bearerAuth: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <key>' },
      apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
    },
    defs: { Error: errorSchema },
  });
  const metaByPath = new Map(
    [...procedureMetas(publicRouter).values()].map((meta) => [`${meta.openapi?.method.toLowerCase()} ${meta.openapi?.path}`, meta]),
  );
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const [method, operation] of Object.entries(item as Record<string, Operation>)) {
      const meta = metaByPath.get(`${method} ${path}`);
      rewriteResponses(operation, meta?.successStatus ?? 200);
      // A key may be sent in either header; OpenAPI lists alternatives as separate requirements.
      (operation as { security?: unknown }).security = [{ bearerAuth: [] }, { apiKeyHeader: [] }];
      if (method === 'post' && path.endsWith('/attachments')) operation.requestBody = uploadBody;
    }
  }
  // The library's own error shapes are referenced no more: only ours is described.
  const schemas = document.components?.schemas ?? {};
  for (const name of Object.keys(schemas)) if (name.startsWith('error.')) delete schemas[name];
  cached = document;
  return document;
}

function rewriteResponses(operation: Operation, successStatus: number) {
  const responses: Operation['responses'] = {};
  for (const [code, response] of Object.entries(operation.responses)) {
    const status = Number(code);
    if (status < 400) {
      responses[String(status === 200 ? successStatus : status)] = {
        ...response,
        headers: { ...response.headers, ...rateLimitHeaders },
      };
      continue;
    }
    responses[code] = {
      description: response.description,
      headers: status === 429 ? { ...rateLimitHeaders, 'Retry-After': integerHeader('Seconds to wait before retrying') } : undefined,
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    };
  }
  responses['400'] ??= errorResponse('Invalid input');
  responses['500'] = errorResponse('Internal server error (details are logged with the X-Request-Id)');
  operation.responses = responses;
}

function errorResponse(description: string) {
  return { description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
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
