import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { procedureMetas } from '../../server/api/operation';
import { openApiDocument } from '../../server/api/openapi';
import { env } from '../../server/env';
import { publicRouter } from '../../server/api/router';
import { EVENT_TYPES, TEST_EVENT_TYPE } from '../../server/webhooks/events';
import { startTestServer, type TestServer } from '../support/http';
import { OPERATIONS, WEBHOOK_OPERATIONS } from '../support/operations';

const CREATED = [
  'POST /{projectSlug}/tasks',
  'POST /{projectSlug}/tasks/batch',
  'POST /{projectSlug}/tasks/{taskId}/comments',
  'POST /{projectSlug}/tasks/{taskId}/attachments',
  'POST /{projectSlug}/tasks/{taskId}/attachments/uploads',
  'POST /{projectSlug}/tasks/{taskId}/attachments/uploads/{uploadId}/complete',
  'POST /webhooks/endpoints',
  'POST /webhooks/endpoints/{endpointId}/test',
];
const ERROR_REF = '#/components/schemas/ApiError';
// Every key and app may ask these, each for what is its own.
const NO_SCOPE = ['GET /requests/mine', 'GET /me'];
const RATE_LIMIT_HEADERS = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'];

/** The parts of an OpenAPI 3.1 document these tests read. */
interface Schema {
  type?: string;
  $ref?: string;
  example?: unknown;
  description?: string;
  required?: string[];
  properties?: Record<string, Schema>;
  anyOf?: Schema[];
  [keyword: string]: unknown;
}
interface Parameter {
  in: string;
  name: string;
  required?: boolean;
  example?: unknown;
  schema: Schema;
}
interface Content {
  schema: Schema;
  examples: Record<string, { value: { statusCode?: number; message: string } }>;
}
interface ResponseObject {
  description: string;
  headers?: Record<string, unknown>;
  content?: Record<string, Content>;
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content: Record<string, Content> };
  responses: Record<string, ResponseObject>;
  [field: string]: unknown;
}
interface OpenApiDocument {
  openapi: string;
  info: { version: string; title: string; description: string; contact: { url: string }; license: { name: string } };
  servers: { url: string; 'x-internal'?: boolean }[];
  tags: { name: string; description?: string }[];
  paths: Record<string, Record<string, Operation>>;
  webhooks: Record<string, { post: Operation }>;
  components: {
    schemas: Record<string, Schema>;
    headers: Record<string, { schema: Schema; description?: string }>;
    [kind: string]: Record<string, unknown>;
  };
  [field: string]: unknown;
}

let server: TestServer;
let document: OpenApiDocument;
let served: Response;

beforeAll(async () => {
  server = await startTestServer();
  served = await fetch(`${server.baseUrl}/v1/public/openapi.json`);
  document = await served.clone().json();
});

afterAll(() => server.close());

function operationNamed(name: string): Operation {
  return operations().find(([n]) => n === name)![1];
}

/** The messages an operation's document lists for `status`, as its examples give them. */
function messagesOf(operation: Operation, status: string): string[] {
  return Object.values(operation.responses[status]!.content!['application/json']!.examples).map(({ value }) => value.message);
}

/** Every operation of the document as [`METHOD /path`, operation]. */
function operations(): [string, Operation][] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]): [string, Operation] => [`${method.toUpperCase()} ${path}`, operation]),
  );
}

describe('GET /v1/public/openapi.json', () => {
  it('is served as JSON without a key', () => {
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('is OpenAPI 3.1 with version 0.0.1 and the absolute /v1/public base URL of the deployment', () => {
    expect(document.openapi).toMatch(/^3\.1\.\d+$/);
    expect(document.info.version).toBe('0.0.1');
    expect(document.info.title).toBeTruthy();
    // Public, for integrations anywhere (OWASP API9): `x-internal: false`.
    expect(document.servers).toEqual([{ url: `${env().appUrl}/v1/public`, 'x-internal': false }]);
  });

  it('describes exactly the operations: the twelve of the spec, the extensions on tasks, the audit log, the request log, usage, the caller and its projects', () => {
    expect(
      operations()
        .map(([name]) => name)
        .sort(),
    ).toEqual([...OPERATIONS].sort());
  });

  it("has the key's two schemes and OAuth 2's authorization code with the seven scopes; every operation accepts any, OAuth with its scope", () => {
    const origin = new URL(env().appUrl).origin;
    expect(document.components.securitySchemes).toEqual({
      bearerAuth: expect.objectContaining({ type: 'http', scheme: 'bearer' }),
      apiKeyHeader: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'X-API-Key' }),
      oauth2: expect.objectContaining({
        type: 'oauth2',
        flows: {
          authorizationCode: {
            authorizationUrl: `${origin}/api/auth/oauth2/authorize`,
            tokenUrl: `${origin}/api/auth/oauth2/token`,
            refreshUrl: `${origin}/api/auth/oauth2/token`,
            scopes: {
              'task:read': expect.any(String),
              'task:create': expect.any(String),
              'task:update': expect.any(String),
              'audit:read': expect.any(String),
              'requests:read': expect.any(String),
              'usage:read': expect.any(String),
              'webhook:manage': expect.any(String),
            },
          },
        },
      }),
    });
    const scopes = new Map(
      [...procedureMetas(publicRouter).values()].map((meta) => [`${meta.openapi?.method.toUpperCase()} ${meta.openapi?.path}`, meta.scope]),
    );
    for (const [name, operation] of operations()) {
      // The caller's own requests and who it is need no scope: any token of the app will do.
      const scope = scopes.get(name);
      expect(operation.security, name).toEqual([{ bearerAuth: [] }, { apiKeyHeader: [] }, { oauth2: scope ? [scope] : [] }]);
    }
  });

  it('describes the ApiError schema as {statusCode, message} and nothing else', () => {
    expect(document.components.schemas.ApiError).toMatchObject({
      type: 'object',
      properties: { statusCode: { type: 'integer' }, message: { type: 'string' } },
      required: ['statusCode', 'message'],
      additionalProperties: false,
    });
    // The library's own error shapes ({message, code, issues}) are not described.
    expect(Object.keys(document.components.schemas).filter((name) => name.startsWith('error.') || name === 'Error')).toEqual([]);
  });

  it('every operation declares 401, 403, 404, 429, 500 and 503 (those on the workspace no 404, its own requests no 403) with the ApiError schema and the messages as examples', () => {
    for (const [name, operation] of operations()) {
      const errors = Object.entries(operation.responses).filter(([status]) => Number(status) >= 400);
      // A webhook endpoint, or the project it is for, may not be found; the rest of the workspace's operations look up nothing.
      const onWorkspace = !name.includes('{projectSlug}') && !/^(POST|PATCH) \/webhooks|\{endpointId\}/.test(name);
      const declared = ['401', ...(NO_SCOPE.includes(name) ? [] : ['403']), ...(onWorkspace ? [] : ['404']), '429', '500', '503'];
      expect(
        errors.map(([status]) => status),
        name,
      ).toEqual(expect.arrayContaining(declared));
      if (onWorkspace) expect(operation.responses['404'], name).toBeUndefined();
      for (const [status, response] of errors) {
        const json = response.content!['application/json']!;
        expect(json.schema, `${name} ${status}`).toEqual({ $ref: ERROR_REF });
        const examples = Object.values(json.examples);
        expect(examples.length, `${name} ${status}`).toBeGreaterThan(0);
        for (const { value } of examples) {
          expect(value.statusCode).toBe(Number(status));
          expect(response.description, `${name} ${status}`).toContain(value.message);
        }
      }
      expect(messagesOf(operation, '401')).toEqual(['Invalid API key']);
      expect(messagesOf(operation, '429')).toEqual(['Too many requests']);
      expect(messagesOf(operation, '503')).toEqual(['Service temporarily unavailable']);
    }
  });

  it('403 names the scope the operation needs, and on the workspace refuses a key of one project', () => {
    expect(messagesOf(operationNamed('GET /requests'), '403')).toEqual([
      'Missing required scope: requests:read',
      "API key is limited to one project; the workspace's audit log, request log, usage and webhooks need a key for every project",
    ]);
    expect(operationNamed('GET /requests/mine').responses['403']).toBeUndefined();
    expect(operationNamed('GET /me').responses['403']).toBeUndefined();
    // A key limited to one project lists that project.
    expect(messagesOf(operationNamed('GET /projects'), '403')).toEqual(['Missing required scope: task:read']);
    expect(messagesOf(operationNamed('DELETE /{projectSlug}/tasks/{taskId}'), '403')).toEqual([
      'Missing required scope: task:update',
      'API key does not have access to project <slug>',
    ]);
    expect(messagesOf(operationNamed('POST /{projectSlug}/tasks/{taskId}/attachments'), '403')[0]).toBe(
      'Missing required scope: task:create',
    );
  });

  it('the audit log needs audit:read on a key for every project; its export is NDJSON or CSV', () => {
    for (const name of ['GET /audit-events', 'GET /audit-events/export']) {
      expect(messagesOf(operationNamed(name), '403')).toEqual([
        'Missing required scope: audit:read',
        "API key is limited to one project; the workspace's audit log, request log, usage and webhooks need a key for every project",
      ]);
      expect(operationNamed(name).responses['404']).toBeUndefined();
    }
    expect(operationNamed('GET /audit-events').responses['200']!.content!['application/json']!.schema).toEqual({
      $ref: '#/components/schemas/AuditEventList',
    });
    expect(Object.keys(operationNamed('GET /audit-events/export').responses['200']!.content!)).toEqual([
      'application/x-ndjson',
      'text/csv',
    ]);
    expect(document.webhooks['audit.event']!.post.requestBody!.content['application/json']!.schema.properties!.data).toMatchObject({
      required: ['workspace', 'event'],
      properties: { event: { $ref: '#/components/schemas/AuditEvent' } },
    });
  });

  it('404 names what each operation looks up', () => {
    expect(messagesOf(operationNamed('GET /{projectSlug}/statuses'), '404')).toEqual(['Project not found']);
    expect(messagesOf(operationNamed('PATCH /{projectSlug}/tasks/{taskId}'), '404')).toEqual(['Project not found', 'Task not found']);
    expect(messagesOf(operationNamed('GET /{projectSlug}/tasks/{taskId}/attachments/{attachmentId}'), '404')).toEqual([
      'Project not found',
      'Task not found',
      'Attachment not found',
    ]);
  });

  it('400 is declared where input can be refused, and only there', () => {
    const with400 = operations()
      .filter(([, operation]) => operation.responses['400'])
      .map(([name]) => name)
      .sort();
    expect(with400).toEqual(
      [
        'GET /audit-events',
        'GET /audit-events/export',
        'GET /{projectSlug}/tasks',
        'GET /{projectSlug}/tasks/deleted',
        'POST /{projectSlug}/tasks',
        'POST /{projectSlug}/tasks/batch',
        'PATCH /{projectSlug}/tasks/batch',
        'PATCH /{projectSlug}/tasks/{taskId}',
        'POST /{projectSlug}/tasks/{taskId}/comments',
        'GET /{projectSlug}/tasks/{taskId}/attachments/{attachmentId}',
        'POST /{projectSlug}/tasks/{taskId}/attachments',
        'POST /{projectSlug}/tasks/{taskId}/attachments/uploads',
        'POST /{projectSlug}/tasks/{taskId}/attachments/uploads/{uploadId}/complete',
        'GET /requests',
        'GET /requests/mine',
        'GET /usage',
        'GET /projects',
        // Every webhook operation but the list takes a body or an endpoint's id.
        ...WEBHOOK_OPERATIONS.filter((name) => name !== 'GET /webhooks/endpoints'),
      ].sort(),
    );
    expect(messagesOf(operationNamed('POST /{projectSlug}/tasks'), '400')).toContain('Request body is not valid JSON');
  });

  it('operations with a JSON body declare 413 and 415 with the messages the server sends', () => {
    for (const name of [
      'POST /{projectSlug}/tasks',
      'PATCH /{projectSlug}/tasks/{taskId}',
      'POST /{projectSlug}/tasks/{taskId}/comments',
    ]) {
      expect(messagesOf(operationNamed(name), '413'), name).toEqual(['Request body too large']);
      expect(messagesOf(operationNamed(name), '415'), name).toEqual(['Content-Type must be application/json']);
    }
    // The direct upload's two steps are JSON too; the file's limit is theirs as well.
    for (const name of [
      'POST /{projectSlug}/tasks/{taskId}/attachments/uploads',
      'POST /{projectSlug}/tasks/{taskId}/attachments/uploads/{uploadId}/complete',
    ]) {
      expect(messagesOf(operationNamed(name), '413'), name).toEqual([
        'Request body too large',
        'File too large: the limit is 10 MB (10485760 bytes)',
      ]);
      expect(messagesOf(operationNamed(name), '415'), name).toEqual(['Content-Type must be application/json']);
    }
  });

  it('declares the headers: X-Request-Id and CORS on every answer, the rate limit on every 2xx and 4xx, Retry-After, WWW-Authenticate', () => {
    // 500 and 503 may come when the limiter itself is down; 401, 414 and 431 state the address's limit.
    const unmetered = ['500', '503'];
    const names = (operation: Operation, status: string) => Object.keys(operation.responses[status]?.headers ?? {});
    for (const [name, operation] of operations()) {
      for (const status of Object.keys(operation.responses))
        expect(names(operation, status), `${name} ${status}`).toEqual(
          expect.arrayContaining(['X-Request-Id', 'Access-Control-Allow-Origin']),
        );
      for (const status of Object.keys(operation.responses).filter((s) => !unmetered.includes(s))) {
        expect(names(operation, status), `${name} ${status}`).toEqual(expect.arrayContaining(RATE_LIMIT_HEADERS));
      }
      expect(names(operation, '429')).toContain('Retry-After');
      expect(names(operation, '503')).toContain('Retry-After');
      expect(names(operation, '401')).toContain('WWW-Authenticate');
    }
    for (const header of RATE_LIMIT_HEADERS) expect(document.components.headers[header]!.schema).toMatchObject({ type: 'integer' });
    expect(document.components.headers['Access-Control-Allow-Origin']!.schema).toEqual({ type: 'string', const: '*' });
  });

  it('every POST and PATCH, and only they, take an optional Idempotency-Key and declare its 400, 409 and 422', () => {
    const hasKey = (operation: Operation) => (operation.parameters ?? []).some((p) => p.in === 'header' && p.name === 'Idempotency-Key');
    const writes = operations().filter(([name]) => /^(POST|PATCH) /.test(name));
    expect(writes).toHaveLength(OPERATIONS.filter((name) => /^(POST|PATCH) /.test(name)).length);
    for (const [name, operation] of writes) {
      const parameter = operation.parameters?.find((p) => p.in === 'header' && p.name === 'Idempotency-Key');
      expect(parameter, name).toMatchObject({ required: false, schema: { type: 'string', minLength: 1, maxLength: 255 } });
      expect(messagesOf(operation, '400'), name).toContain('Idempotency-Key: must be 1 to 255 printable ASCII characters');
      expect(messagesOf(operation, '409'), name).toContain(
        'Idempotency-Key: a request with this key is still being processed; retry it shortly',
      );
      expect(Object.keys(operation.responses['409']!.headers!), name).toContain('Retry-After');
      expect(messagesOf(operation, '422'), name).toEqual(['Idempotency-Key was already used for a different request']);
      const success = operation.responses[CREATED.includes(name) ? '201' : '200'];
      expect(Object.keys(success!.headers!), name).toContain('Idempotent-Replayed');
    }
    for (const [name, operation] of operations().filter(([name]) => /^(GET|DELETE) /.test(name))) {
      expect([hasKey(operation), operation.responses['409'], operation.responses['422']], name).toEqual([false, undefined, undefined]);
    }
  });

  it('states the configured rate limit, in words and as x-ratelimit', () => {
    const limit = env().rateLimitPerMinute;
    expect(document.info.description).toContain(`Each key may make ${limit} requests per minute`);
    expect(document['x-ratelimit']).toEqual({ limit, window: '60s', per: 'API key', algorithm: 'sliding window' });
  });

  it('has tags with descriptions, a contact and a license', () => {
    expect(document.tags.map((tag) => tag.name)).toEqual([
      'Lookups',
      'Tasks',
      'Comments',
      'Attachments',
      'Audit log',
      'Requests',
      'Workspace',
      'Webhooks',
    ]);
    for (const tag of document.tags) expect(tag.description).toBeTruthy();
    expect(document.info.contact.url).toBe(`${env().appUrl}/docs`);
    expect(document.info.license.name).toBeTruthy();
  });

  it('describes every webhook event under webhooks, with its type and the signature headers', () => {
    expect(Object.keys(document.webhooks)).toEqual([...EVENT_TYPES, TEST_EVENT_TYPE]);
    for (const [type, item] of Object.entries(document.webhooks)) {
      expect(item.post.requestBody?.content['application/json']?.schema.properties?.type?.const).toBe(type);
      expect(item.post.parameters?.map((parameter) => parameter.name)).toEqual(['webhook-id', 'webhook-timestamp', 'webhook-signature']);
    }
  });

  it('every path parameter carries an example', () => {
    for (const [name, operation] of operations()) {
      for (const parameter of (operation.parameters ?? []).filter((p) => p.in === 'path')) {
        expect(parameter.schema.example ?? parameter.example, `${name} ${parameter.name}`).toBeDefined();
      }
    }
  });

  it("passes Redocly's recommended rules with no error and no warning", async () => {
    const file = path.join(await fs.mkdtemp(path.join(os.tmpdir(), 'taskapi-openapi-')), 'openapi.json');
    await fs.writeFile(file, JSON.stringify(document));
    const redocly = createRequire(import.meta.url).resolve('@redocly/cli/bin/cli.js');
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [redocly, 'lint', '--config', 'redocly.yaml', '--format', 'json', file],
      {
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      },
    ).catch((error: { stdout: string }) => error);
    const report = JSON.parse(stdout.slice(stdout.indexOf('{')));
    expect(report.problems.map((problem: { ruleId: string; message: string }) => `${problem.ruleId}: ${problem.message}`)).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  });

  it('the POSTs answer 201, every other operation 200', () => {
    for (const [name, operation] of operations()) {
      const success = Object.keys(operation.responses).filter((status) => Number(status) < 300);
      expect(success, name).toEqual([CREATED.includes(name) ? '201' : '200']);
    }
  });

  it('get, create and update carry the ETag; get honours If-None-Match with a 304, update and delete If-Match with a 412', () => {
    const find = (name: string) => operations().find(([n]) => n === name)![1];
    const headerNames = (response: ResponseObject | undefined) => Object.keys(response?.headers ?? {});
    const parameterNames = (operation: Operation) => (operation.parameters ?? []).filter((p) => p.in === 'header').map((p) => p.name);
    const get = find('GET /{projectSlug}/tasks/{taskId}');
    const update = find('PATCH /{projectSlug}/tasks/{taskId}');
    const remove = find('DELETE /{projectSlug}/tasks/{taskId}');

    expect(headerNames(get.responses['200'])).toContain('ETag');
    expect(headerNames(get.responses['304'])).toContain('ETag');
    expect(get.responses['304']!.content).toBeUndefined();
    expect(headerNames(find('POST /{projectSlug}/tasks').responses['201'])).toContain('ETag');
    expect(headerNames(update.responses['200'])).toContain('ETag');
    expect(parameterNames(get)).toEqual(['If-None-Match']);
    expect(parameterNames(update)).toEqual(['If-Match', 'Idempotency-Key']);
    expect(parameterNames(remove)).toEqual(['If-Match']);
    for (const operation of [update, remove]) {
      expect(Object.values(operation.responses['412']!.content!['application/json']!.examples)).toEqual([
        { value: { statusCode: 412, message: 'Task was changed since you read it (ETag mismatch)' } },
      ]);
    }
  });

  it('describes the IETF RateLimit-Policy field on every keyed answer, and the RateLimit field beside it in words', () => {
    for (const [name, operation] of operations()) {
      const names = Object.keys(operation.responses['200']?.headers ?? operation.responses['201']!.headers!);
      expect(names, name).toContain('RateLimit-Policy');
      // OWASP's rate-limit rule takes one family of fields per answer (oneOf): the X-RateLimit-* trio is listed.
      expect(names, name).not.toContain('RateLimit');
    }
    expect(document.components.headers['RateLimit-Policy']!.schema).toMatchObject({ type: 'string', maxLength: 100 });
    expect(document.components.headers['RateLimit-Policy']!.description).toContain('`RateLimit: "per-key";r=');
  });

  it("passes Stoplight Spectral's OWASP API Security ruleset with no error but the one a local http:// server gets", async () => {
    const file = path.join(await fs.mkdtemp(path.join(os.tmpdir(), 'taskapi-spectral-')), 'openapi.json');
    await fs.writeFile(file, JSON.stringify(document));
    const spectral = createRequire(import.meta.url).resolve('@stoplight/spectral-cli/dist/index.js');
    const { stdout } = await promisify(execFile)(process.execPath, [spectral, 'lint', '-r', '.spectral.yaml', '-f', 'json', '-q', file], {
      maxBuffer: 64 * 1024 * 1024,
    }).catch((error: { stdout: string }) => error);
    const findings = JSON.parse(stdout) as { code: string; severity: number; path: string[]; message: string }[];
    const errors = findings.filter((finding) => finding.severity === 0).map((finding) => `${finding.code} ${finding.path.join('.')}`);
    const local = document.servers[0]!.url.startsWith('http://') ? ['owasp:api8:2023-no-server-http servers.0.url'] : [];
    expect(errors).toEqual(local);
  });

  it('success responses reference the resource schemas', () => {
    const bodyOf = (name: string) => {
      const [, operation] = operations().find(([n]) => n === name)!;
      const response = operation.responses['200'] ?? operation.responses['201']!;
      return response.content!['application/json']!.schema;
    };
    expect(bodyOf('GET /{projectSlug}/tasks/{taskId}')).toEqual({ $ref: '#/components/schemas/Task' });
    expect(bodyOf('POST /{projectSlug}/tasks')).toEqual({ $ref: '#/components/schemas/Task' });
    expect(bodyOf('GET /{projectSlug}/tasks')).toEqual({ $ref: '#/components/schemas/TaskList' });
    expect(bodyOf('GET /{projectSlug}/statuses')).toEqual({ type: 'array', items: { $ref: '#/components/schemas/Status' }, maxItems: 100 });
    expect(bodyOf('POST /{projectSlug}/tasks/{taskId}/comments')).toEqual({ $ref: '#/components/schemas/Comment' });
    expect(bodyOf('POST /{projectSlug}/tasks/{taskId}/attachments')).toEqual({ $ref: '#/components/schemas/Attachment' });
    expect(bodyOf('POST /{projectSlug}/tasks/{taskId}/attachments/uploads')).toEqual({ $ref: '#/components/schemas/DirectUpload' });
    expect(bodyOf('POST /{projectSlug}/tasks/{taskId}/attachments/uploads/{uploadId}/complete')).toEqual({
      $ref: '#/components/schemas/Attachment',
    });
    expect(bodyOf('DELETE /{projectSlug}/tasks/{taskId}')).toEqual({ $ref: '#/components/schemas/Success' });
  });

  it('the upload takes multipart/form-data with one required binary part named file', () => {
    const [, upload] = operations().find(([name]) => name === 'POST /{projectSlug}/tasks/{taskId}/attachments')!;
    expect(upload.requestBody!.required).toBe(true);
    expect(Object.keys(upload.requestBody!.content)).toEqual(['multipart/form-data']);
    expect(upload.requestBody!.content['multipart/form-data']!.schema).toMatchObject({
      type: 'object',
      required: ['file'],
      properties: { file: { type: 'string', format: 'binary' } },
    });
    expect(Object.keys(upload.responses)).toEqual(expect.arrayContaining(['413', '415']));
  });

  it('the direct upload announces filename and size, with the 10 MB limit in the schema; complete takes no body', () => {
    const announce = operationNamed('POST /{projectSlug}/tasks/{taskId}/attachments/uploads').requestBody!.content!['application/json']!
      .schema;
    expect(announce.required).toEqual(['filename', 'size']);
    expect(announce.properties!.size).toMatchObject({ type: 'integer', minimum: 0, maximum: 10_485_760 });
    expect(Object.keys(announce.properties!).sort()).toEqual(['filename', 'mimeType', 'size']);
    expect(operationNamed('POST /{projectSlug}/tasks/{taskId}/attachments/uploads/{uploadId}/complete').requestBody).toBeUndefined();
  });

  it('the JSON bodies are described: create task requires title, the comment requires content', () => {
    const bodySchema = (name: string) => operations().find(([n]) => n === name)![1].requestBody!.content!['application/json']!.schema;
    const create = bodySchema('POST /{projectSlug}/tasks');
    expect(create.required).toEqual(['title']);
    expect(Object.keys(create.properties!).sort()).toEqual([
      'assigneeIds',
      'description',
      'dueDate',
      'labelIds',
      'priority',
      'statusId',
      'title',
    ]);
    expect(bodySchema('POST /{projectSlug}/tasks/{taskId}/comments').required).toEqual(['content']);
    expect(bodySchema('PATCH /{projectSlug}/tasks/{taskId}').required ?? []).toEqual([]);
  });

  it('the limits of titles, descriptions, comments and id lists are in the schema, not only in prose', () => {
    const bodySchema = (name: string) => operationNamed(name).requestBody!.content!['application/json']!.schema.properties!;
    for (const name of ['POST /{projectSlug}/tasks', 'PATCH /{projectSlug}/tasks/{taskId}']) {
      const fields = bodySchema(name);
      expect(fields.title).toMatchObject({ minLength: 1, maxLength: 500, pattern: '\\S' });
      expect(fields.description!.anyOf![0]).toMatchObject({ maxLength: 100_000 });
      expect(fields.assigneeIds).toMatchObject({ maxItems: 5 });
      expect(fields.labelIds).toMatchObject({ maxItems: 50 });
    }
    expect(bodySchema('POST /{projectSlug}/tasks/{taskId}/comments').content).toMatchObject({
      minLength: 1,
      maxLength: 10_000,
      pattern: '\\S',
    });
  });

  it('the list query parameters are described with their bounds and defaults', () => {
    const [, list] = operations().find(([name]) => name === 'GET /{projectSlug}/tasks')!;
    const query = Object.fromEntries((list.parameters ?? []).filter((p) => p.in === 'query').map((p) => [p.name, p]));
    expect(Object.keys(query)).toEqual(
      expect.arrayContaining(['page', 'limit', 'statusId', 'status', 'priority', 'search', 'assigneeId', 'labelId']),
    );
    expect(query.page!.schema).toMatchObject({ type: 'integer', minimum: 1, default: 1 });
    expect(query.limit!.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 100, default: 20 });
    // The contract's precedence rule between the two status filters reaches the document.
    expect(query.statusId!.schema.description).toMatch(/takes precedence over `status`/);
    expect(query.status!.schema.description).toMatch(/ignored when `statusId` is given/);
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
      const [, kind, name] = /^#\/components\/(schemas|headers)\/(.+)$/.exec(ref) ?? [];
      expect(kind, ref).toBeDefined();
      expect(document.components[kind!]?.[name!], ref).toBeDefined();
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
        problems.push(
          `${later.method} ${later.path} (${later.procedure}) is captured by ${earlier.method} ${earlier.path} (${earlier.procedure})`,
        );
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

  it('walks all the procedures, in registration order', () => {
    expect(
      routes()
        .map((r) => `${r.method} ${r.path}`)
        .sort(),
    ).toEqual([...OPERATIONS].sort());
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
