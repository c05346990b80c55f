import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { procedureMetas } from '../../server/api/operation';
import { openApiDocument } from '../../server/api/openapi';
import { publicRouter } from '../../server/api/router';
import { startTestServer, type TestServer } from '../support/http';

const OPERATIONS = [
  'GET /{projectSlug}/statuses',
  'GET /{projectSlug}/labels',
  'GET /{projectSlug}/members',
  'GET /{projectSlug}/tasks',
  'GET /{projectSlug}/tasks/{taskId}',
  'POST /{projectSlug}/tasks',
  'PATCH /{projectSlug}/tasks/{taskId}',
  'DELETE /{projectSlug}/tasks/{taskId}',
  'GET /{projectSlug}/tasks/{taskId}/comments',
  'POST /{projectSlug}/tasks/{taskId}/comments',
  'GET /{projectSlug}/tasks/{taskId}/attachments/{attachmentId}',
  'POST /{projectSlug}/tasks/{taskId}/attachments',
];
const CREATED = ['POST /{projectSlug}/tasks', 'POST /{projectSlug}/tasks/{taskId}/comments', 'POST /{projectSlug}/tasks/{taskId}/attachments'];
const ERROR_REF = '#/components/schemas/Error';
const RATE_LIMIT_HEADERS = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'];

let server: TestServer;
let document: any;
let served: Response;

beforeAll(async () => {
  server = await startTestServer();
  served = await fetch(`${server.baseUrl}/v1/public/openapi.json`);
  document = await served.clone().json();
});

afterAll(() => server.close());

/** Every operation of the document as [`METHOD /path`, operation]. */
function operations(): [string, any][] {
  return Object.entries(document.paths as Record<string, Record<string, any>>).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]): [string, any] => [`${method.toUpperCase()} ${path}`, operation]),
  );
}

describe('GET /v1/public/openapi.json', () => {
  it('is served as JSON without a key', () => {
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('is OpenAPI 3.1 with version 0.0.1 and the /v1/public base path', () => {
    expect(document.openapi).toMatch(/^3\.1\.\d+$/);
    expect(document.info.version).toBe('0.0.1');
    expect(document.info.title).toBeTruthy();
    expect(document.servers).toEqual([{ url: '/v1/public' }]);
  });

  it('describes exactly the twelve operations', () => {
    expect(operations().map(([name]) => name).sort()).toEqual([...OPERATIONS].sort());
  });

  it('has both security schemes, and every operation accepts either', () => {
    expect(document.components.securitySchemes).toEqual({
      bearerAuth: expect.objectContaining({ type: 'http', scheme: 'bearer' }),
      apiKeyHeader: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'X-API-Key' }),
    });
    for (const [name, operation] of operations()) {
      expect(operation.security, name).toEqual([{ bearerAuth: [] }, { apiKeyHeader: [] }]);
    }
  });

  it('describes the Error schema as {statusCode, message} and nothing else', () => {
    expect(document.components.schemas.Error).toMatchObject({
      type: 'object',
      properties: { statusCode: { type: 'integer' }, message: { type: 'string' } },
      required: ['statusCode', 'message'],
      additionalProperties: false,
    });
    // The library's own error shapes ({message, code, issues}) are not described.
    expect(Object.keys(document.components.schemas).filter((name) => name.startsWith('error.'))).toEqual([]);
  });

  it('every error response of every operation has the Error schema; 401, 403, 429 and 500 are always listed', () => {
    for (const [name, operation] of operations()) {
      const errors = Object.entries(operation.responses as Record<string, any>).filter(([status]) => Number(status) >= 400);
      expect(errors.map(([status]) => status), name).toEqual(expect.arrayContaining(['400', '401', '403', '429', '500']));
      for (const [status, response] of errors) {
        expect(response.content, `${name} ${status}`).toEqual({ 'application/json': { schema: { $ref: ERROR_REF } } });
        expect(response.description, `${name} ${status}`).toBeTruthy();
      }
    }
  });

  it('the three POSTs answer 201, every other operation 200', () => {
    for (const [name, operation] of operations()) {
      const success = Object.keys(operation.responses).filter((status) => Number(status) < 400);
      expect(success, name).toEqual([CREATED.includes(name) ? '201' : '200']);
    }
  });

  it('success responses reference the resource schemas', () => {
    const bodyOf = (name: string) => {
      const [, operation] = operations().find(([n]) => n === name)!;
      const response = operation.responses['200'] ?? operation.responses['201'];
      return response.content['application/json'].schema;
    };
    expect(bodyOf('GET /{projectSlug}/tasks/{taskId}')).toEqual({ $ref: '#/components/schemas/Task' });
    expect(bodyOf('POST /{projectSlug}/tasks')).toEqual({ $ref: '#/components/schemas/Task' });
    expect(bodyOf('GET /{projectSlug}/tasks')).toEqual({ $ref: '#/components/schemas/TaskList' });
    expect(bodyOf('GET /{projectSlug}/statuses')).toEqual({ type: 'array', items: { $ref: '#/components/schemas/Status' } });
    expect(bodyOf('POST /{projectSlug}/tasks/{taskId}/comments')).toEqual({ $ref: '#/components/schemas/Comment' });
    expect(bodyOf('POST /{projectSlug}/tasks/{taskId}/attachments')).toEqual({ $ref: '#/components/schemas/Attachment' });
    expect(bodyOf('DELETE /{projectSlug}/tasks/{taskId}')).toEqual({ $ref: '#/components/schemas/Success' });
  });

  it('the upload takes multipart/form-data with one required binary part named file', () => {
    const [, upload] = operations().find(([name]) => name === 'POST /{projectSlug}/tasks/{taskId}/attachments')!;
    expect(upload.requestBody.required).toBe(true);
    expect(Object.keys(upload.requestBody.content)).toEqual(['multipart/form-data']);
    expect(upload.requestBody.content['multipart/form-data'].schema).toMatchObject({
      type: 'object',
      required: ['file'],
      properties: { file: { type: 'string', format: 'binary' } },
    });
    expect(Object.keys(upload.responses)).toEqual(expect.arrayContaining(['413', '415']));
  });

  it('the JSON bodies are described: create task requires title, the comment requires content', () => {
    const bodySchema = (name: string) => operations().find(([n]) => n === name)![1].requestBody.content['application/json'].schema;
    const create = bodySchema('POST /{projectSlug}/tasks');
    expect(create.required).toEqual(['title']);
    expect(Object.keys(create.properties).sort()).toEqual(['assigneeIds', 'description', 'dueDate', 'labelIds', 'priority', 'statusId', 'title']);
    expect(bodySchema('POST /{projectSlug}/tasks/{taskId}/comments').required).toEqual(['content']);
    expect(bodySchema('PATCH /{projectSlug}/tasks/{taskId}').required ?? []).toEqual([]);
  });

  it('the list query parameters are described with their bounds and defaults', () => {
    const [, list] = operations().find(([name]) => name === 'GET /{projectSlug}/tasks')!;
    const query = Object.fromEntries((list.parameters as any[]).filter((p) => p.in === 'query').map((p) => [p.name, p]));
    expect(Object.keys(query)).toEqual(expect.arrayContaining(['page', 'limit', 'statusId', 'status', 'priority', 'search', 'assigneeId', 'labelId']));
    expect(query.page.schema).toMatchObject({ type: 'integer', minimum: 1, default: 1 });
    expect(query.limit.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 100, default: 20 });
    // The contract's precedence rule between the two status filters reaches the document.
    expect(query.statusId.schema.description).toMatch(/takes precedence over `status`/);
    expect(query.status.schema.description).toMatch(/ignored when `statusId` is given/);
  });

  it('success responses and 429s carry the rate-limit headers; 429 also Retry-After', () => {
    for (const [name, operation] of operations()) {
      for (const [status, response] of Object.entries(operation.responses as Record<string, any>)) {
        if (Number(status) < 400 || status === '429') {
          expect(Object.keys(response.headers ?? {}), `${name} ${status}`).toEqual(expect.arrayContaining(RATE_LIMIT_HEADERS));
          for (const header of RATE_LIMIT_HEADERS) expect(response.headers[header].schema).toEqual({ type: 'integer' });
        }
      }
      expect(Object.keys(operation.responses['429'].headers)).toContain('Retry-After');
    }
  });

  it('is valid per the OpenAPI 3.1 schema', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(document));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('every $ref points at a schema that exists', () => {
    const refs = [...JSON.stringify(document).matchAll(/"\$ref":"([^"]+)"/g)].map(([, ref]) => ref!);
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of new Set(refs)) {
      expect(ref).toMatch(/^#\/components\/schemas\//);
      expect(document.components.schemas[ref.split('/').pop()!], ref).toBeDefined();
    }
  });

  it('is the document server/api/openapi.ts generates', () => {
    expect(document).toEqual(JSON.parse(JSON.stringify(openApiDocument())));
  });
});

// --- Route order ---------------------------------------------------------------

interface Route {
  procedure: string;
  method: string;
  path: string;
}

/**
 * trpc-to-openapi tries the paths of a method in registration order and takes
 * the first that matches (case-insensitively). A route is shadowed, wholly or in
 * part, when an earlier one of the same method matches every path it matches in
 * some segment where it has a fixed word: `/{projectSlug}/tasks/{taskId}` before
 * `/{projectSlug}/tasks/search` would take `/web/tasks/search`.
 */
function shadowedRoutes(routes: Route[]): string[] {
  const segments = (path: string) => path.replace(/^\/|\/$/g, '').split('/');
  const isParam = (segment: string) => /^\{.+\}$/.test(segment);
  const problems: string[] = [];
  routes.forEach((later, j) => {
    for (const earlier of routes.slice(0, j)) {
      if (earlier.method !== later.method) continue;
      const a = segments(earlier.path);
      const b = segments(later.path);
      if (a.length !== b.length) continue;
      const overlap = a.every((s, i) => isParam(s) || isParam(b[i]!) || s.toLowerCase() === b[i]!.toLowerCase());
      const captures = a.some((s, i) => isParam(s) && !isParam(b[i]!));
      if (overlap && captures) {
        problems.push(`${later.method} ${later.path} (${later.procedure}) is captured by ${earlier.method} ${earlier.path} (${earlier.procedure})`);
      }
    }
  });
  return problems;
}

describe('route order', () => {
  const routes = (): Route[] =>
    [...procedureMetas(publicRouter)]
      .filter(([, meta]) => meta.openapi)
      .map(([procedure, meta]) => ({ procedure, method: meta.openapi!.method, path: meta.openapi!.path }));

  it('walks all twelve procedures, in registration order', () => {
    expect(routes().map((r) => `${r.method} ${r.path}`).sort()).toEqual([...OPERATIONS].sort());
    expect(routes()[0]!.procedure).toBe('statuses.list');
  });

  it('no fixed path is registered after a {param} path that would capture it', () => {
    expect(shadowedRoutes(routes())).toEqual([]);
  });

  it('the check finds a fixed path registered too late', () => {
    const late: Route[] = [
      { procedure: 'tasks.get', method: 'GET', path: '/{projectSlug}/tasks/{taskId}' },
      { procedure: 'tasks.search', method: 'GET', path: '/{projectSlug}/tasks/Search' },
      { procedure: 'tasks.update', method: 'PATCH', path: '/{projectSlug}/tasks/search' },
      { procedure: 'tasks.comments', method: 'GET', path: '/{projectSlug}/tasks/{taskId}/comments' },
    ];
    expect(shadowedRoutes(late)).toEqual([
      'GET /{projectSlug}/tasks/Search (tasks.search) is captured by GET /{projectSlug}/tasks/{taskId} (tasks.get)',
    ]);
    // Registered first, the fixed path is fine.
    expect(shadowedRoutes([late[1]!, late[0]!])).toEqual([]);
  });
});
