import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settleKeyUsage } from '../../server/auth/last-used';
import { settleStorage } from '../../server/storage/storage';
import { apiClient, errorOf, type Answer } from '../support/client';
import { createWorkspaceFixture, type WorkspaceFixture } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/http';

// Hundreds of requests from one key.
process.env.RATE_LIMIT_PER_MINUTE = '1000000';

/**
 * Property: whatever a client sends, the API never answers 5xx, and every 4xx
 * has the body `{statusCode, message}` and nothing else. Runs are bounded so the
 * file stays within half a minute; a failure prints fast-check's seed and path to replay it.
 */
const RUNS = 100;

let server: TestServer;
let fixture: WorkspaceFixture;
let client: ReturnType<typeof apiClient>;
let taskId: string;

beforeAll(async () => {
  server = await startTestServer();
  fixture = await createWorkspaceFixture();
  client = apiClient(server.baseUrl, await fixture.key());
  const task = await client.post('/web/tasks', { title: 'Fuzz target' });
  expect(task.status).toBe(201);
  taskId = task.body.id;
});

afterAll(async () => {
  await settleStorage();
  await settleKeyUsage();
  await server.close();
});

/** The property every response must hold; a failed expect fails the property. */
function expectWellFormed(response: Answer) {
  expect(response.status, response.text).toBeLessThan(500);
  if (response.status >= 400) {
    expect(response.body).toEqual({ statusCode: response.status, message: expect.any(String) });
    expect(errorOf(response).message.length).toBeGreaterThan(0);
  }
}

/** An accepted body comes back as sent: no character replaced, no date moved. */
function expectStoredAsSent(
  sent: { title: string; description?: string | null; dueDate?: string | null },
  stored: Record<string, unknown>,
) {
  expect(stored.title).toBe(sent.title.trim());
  expect(stored.description).toBe(sent.description ?? null);
  expect(stored.dueDate).toBe(sent.dueDate == null ? null : new Date(sent.dueDate).toISOString());
}

// --- Arbitraries -------------------------------------------------------------

/** Any UTF-16 string, lone surrogates and NUL included. */
const anyUtf16 = fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)), maxLength: 40 });
const text = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  anyUtf16,
  fc.constantFrom(
    '',
    ' ',
    '\n',
    '\u0000',
    'null',
    'undefined',
    '__proto__',
    'constructor',
    '%',
    '_',
    '\\',
    "'; DROP TABLE task; --",
    'WEB-1',
    'web-0',
    'WEB-99999999999999999999',
  ),
  // Around the limits: titles of 500 characters, comments of 10,000, descriptions of 100,000, and past them.
  fc
    .constantFrom(499, 500, 501, 9_999, 10_000, 10_001, 100_000, 100_001, 300_000)
    .chain((n) => fc.constantFrom('a', 'é', '📄', ' ', '\u0000').map((char) => char.repeat(n))),
);
const number = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(0, -1, 1, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, 0.5, 2 ** 31, 2 ** 63),
);
const uuidLike = fc.oneof(
  fc.uuid(),
  fc.uuid().map((id) => id.toUpperCase()),
  fc.constant('00000000-0000-0000-0000-000000000000'),
);
const date = fc.oneof(
  fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
  fc.constantFrom(
    '2026-02-30T10:00:00Z',
    '2026-01-31',
    '2026-01-31T17:00:00',
    '+275760-09-13T00:00:00Z',
    '0000-01-01T00:00:00Z',
    '9999-12-31T23:59:59.999+14:00',
    'now',
  ),
);
const scalar = fc.oneof(text, number, fc.boolean(), fc.constant(null), uuidLike, date);
/** Nested junk: objects and arrays of anything, a few levels deep. */
const junk = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, scalar, tie('array'), tie('object')),
  array: fc.array(tie('value'), { maxLength: 8 }),
  object: fc.dictionary(fc.oneof(text, fc.constantFrom('title', 'projectSlug', 'taskId', '__proto__')), tie('value'), { maxKeys: 6 }),
})).value;

/** A value for a known field: usually of a plausible kind, sometimes anything. */
const fieldValue = (plausible: fc.Arbitrary<unknown>) => fc.oneof({ weight: 3, arbitrary: plausible }, { weight: 1, arbitrary: junk });

const taskFields = {
  title: fieldValue(text),
  description: fieldValue(fc.oneof(text, fc.constant(null))),
  priority: fieldValue(fc.constantFrom('none', 'low', 'medium', 'high', 'urgent', 'URGENT', 'critical', '')),
  dueDate: fieldValue(fc.oneof(date, fc.constant(null))),
  statusId: fieldValue(uuidLike),
  assigneeIds: fieldValue(fc.array(fc.oneof(uuidLike, text), { maxLength: 8 })),
  labelIds: fieldValue(fc.array(fc.oneof(uuidLike, text), { maxLength: 60 })),
};

/** Objects made of the schema's own fields with random values, plus unknown ones now and then. */
const knownTaskFields = fc.record(taskFields, { requiredKeys: [] });
const taskBody = fc.oneof(
  { weight: 4, arbitrary: knownTaskFields },
  {
    weight: 1,
    arbitrary: fc.tuple(knownTaskFields, fc.dictionary(text, junk, { maxKeys: 2 })).map(([known, extra]) => ({ ...extra, ...known })),
  },
  { weight: 1, arbitrary: junk },
  { weight: 1, arbitrary: fc.object() },
);
/** Bodies of the right shape whose text and dates are anything: the values alone decide. */
const plausibleTask = fc.record(
  { title: text, description: fc.oneof(text, fc.constant(null)), dueDate: fc.oneof(date, fc.constant(null)) },
  { requiredKeys: ['title'] },
);
const commentBody = fc.oneof(
  { weight: 4, arbitrary: fc.record({ content: fieldValue(text) }, { requiredKeys: [] }) },
  { weight: 1, arbitrary: fc.record({ content: text, extra: junk }) },
  { weight: 1, arbitrary: junk },
);

/** Raw bodies, most of them not JSON at all. */
const rawBody = fc.oneof(
  text,
  fc.constantFrom(
    '',
    '{',
    '{"title":',
    '[]',
    'null',
    '1e999',
    '"x"',
    '{"title":"a"}}',
    '\uFEFF{"title":"bom"}',
    '{"title":"\\ud800"}',
    '{"title":"\\u0000"}',
  ),
  junk.map((value) => JSON.stringify(value) ?? 'undefined'),
);

const queryKey = fc.oneof(
  fc.constantFrom('page', 'limit', 'statusId', 'status', 'priority', 'search', 'assigneeId', 'labelId', 'sort', 'order', 'projectSlug'),
  fc.string({ maxLength: 10 }),
);
const queryValue = fc.oneof(
  text.filter((s) => s.length < 2_000),
  number.map(String),
  uuidLike,
  fc.constantFrom(
    '',
    'todo',
    'in_progress',
    'done',
    'asc',
    'desc',
    'dueDate',
    'priority',
    '1',
    '0',
    '-1',
    '100',
    '101',
    '1e3',
    '0x10',
    ' 2 ',
    'NaN',
    'Infinity',
  ),
);
/** encodeURIComponent refuses lone surrogates; a client would have sent U+FFFD. */
const encode = (value: string) =>
  encodeURIComponent(value.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd'));
/** Query strings as clients and scripts really write them: pairs, repeated keys, odd encodings. */
const queryString = fc.oneof(
  fc.array(fc.tuple(queryKey, queryValue), { maxLength: 6 }).map((pairs) => new URLSearchParams(pairs).toString()),
  fc.array(fc.tuple(queryKey, queryValue), { maxLength: 4 }).map((pairs) => pairs.map(([k, v]) => `${encode(k)}[]=${encode(v)}`).join('&')),
  fc.constantFrom(
    'page',
    'page=',
    '=1',
    '&&&',
    'limit=1&limit=2',
    'page[]=1',
    'search=%',
    'search=%E0%A4%A',
    'search=%00',
    'search=%FF%FE',
    'status=todo&statusId=x',
    'limit=%20',
    'a=b=c',
  ),
);

// --- Properties --------------------------------------------------------------

const property = <T>(arbitrary: fc.Arbitrary<T>, check: (value: T) => Promise<void>) =>
  fc.assert(fc.asyncProperty(arbitrary, check), { numRuns: RUNS, endOnFailure: true });

describe('random input never gives a 5xx, and every 4xx has the error shape', () => {
  it('POST /{projectSlug}/tasks with random JSON bodies', async () => {
    await property(taskBody, async (body) => expectWellFormed(await client.post('/web/tasks', body)));
  });

  it('POST /{projectSlug}/tasks with any text and date: refused, or stored exactly as sent', async () => {
    await property(plausibleTask, async (body) => {
      const response = await client.post('/web/tasks', body);
      expectWellFormed(response);
      if (response.status === 201) expectStoredAsSent(body, (await client.get(`/web/tasks/${response.body.id}`)).body);
    });
  });

  it('PATCH /{projectSlug}/tasks/{taskId} with random JSON bodies', async () => {
    await property(taskBody, async (body) => expectWellFormed(await client.patch(`/web/tasks/${taskId}`, body)));
  });

  it('POST /{projectSlug}/tasks/{taskId}/comments with random JSON bodies', async () => {
    await property(commentBody, async (body) => expectWellFormed(await client.post(`/web/tasks/${taskId}/comments`, body)));
  });

  it('POST and PATCH with raw bodies that are mostly not JSON', async () => {
    await property(fc.tuple(fc.constantFrom('POST', 'PATCH'), rawBody), async ([method, body]) => {
      const path = method === 'POST' ? '/web/tasks' : `/web/tasks/${taskId}`;
      expectWellFormed(await client.call(method, path, { body, headers: { 'content-type': 'application/json' } }));
    });
  });

  it('GET /{projectSlug}/tasks with random query strings', async () => {
    await property(queryString, async (query) => expectWellFormed(await client.get(`/web/tasks?${query}`)));
  });
});

// Cases the properties above found (PostgreSQL text cannot hold U+0000), kept as plain examples.
describe('U+0000 in free text', () => {
  const NO_NUL = 'must not contain the character U+0000';

  it.each([
    ['POST', '/web/tasks', { title: 'a\u0000b' }, `title: ${NO_NUL}`],
    ['POST', '/web/tasks', { title: 'ok', description: '\u0000' }, `description: ${NO_NUL}`],
    ['PATCH', '/web/tasks/{taskId}', { title: '\u0000x' }, `title: ${NO_NUL}`],
    ['POST', '/web/tasks/{taskId}/comments', { content: 'x\u0000' }, `content: ${NO_NUL}`],
  ])('%s %s answers 400 naming the field', async (method, path, body, message) => {
    const response = await client.call(method, path.replace('{taskId}', taskId), { body });
    expect(response.body).toEqual({ statusCode: 400, message });
  });

  it('GET /web/tasks?search=%00 answers 400 naming the parameter', async () => {
    const response = await client.get('/web/tasks?search=a%00');
    expect(response.body).toEqual({ statusCode: 400, message: `search: ${NO_NUL}` });
  });
});

describe('query parameters named like Object.prototype members', () => {
  it.each(['toString=1', 'constructor=x', '__proto__=x', 'hasOwnProperty=1&valueOf=2', 'toString=1&limit=1'])(
    'GET /web/tasks?%s is served, the unknown parameters ignored',
    async (query) => {
      const response = await client.get(`/web/tasks?${query}`);
      expect(response.status).toBe(200);
      expect(response.body.meta.limit).toBe(query.includes('limit=1') ? 1 : 20);
    },
  );

  it('without a key it answers 401, not 500', async () => {
    const response = await apiClient(server.baseUrl).get('/web/tasks?toString=1');
    expect(response.body).toEqual({ statusCode: 401, message: 'Invalid API key' });
  });
});
