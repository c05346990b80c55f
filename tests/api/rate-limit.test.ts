import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settleKeyUsage } from '../../server/auth/last-used';
import { settleStorage } from '../../server/storage/storage';
import { apiClient } from '../support/client';
import { createWorkspaceFixture, type WorkspaceFixture } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/http';
import { awayFromWindowEdge } from '../support/limit-window';

// Read by env() on first use, which comes after these lines: a small limit, kept in memory.
process.env.RATE_LIMIT_PER_MINUTE = '5';
delete process.env.REDIS_URL;
delete process.env.UPSTASH_REDIS_REST_URL;
delete process.env.UPSTASH_REDIS_REST_TOKEN;

const LIMIT = 5;
const BAD_KEY_LIMIT = 30;
const TOO_MANY = { statusCode: 429, message: 'Too many requests' };

let server: TestServer;
let fixture: WorkspaceFixture;

beforeAll(async () => {
  server = await startTestServer();
  fixture = await createWorkspaceFixture();
});

afterAll(async () => {
  await settleStorage();
  await settleKeyUsage();
  await server.close();
});

/** A client address unique per call, as the proxy in front (the test server trusts one) reports it. */
const uniqueAddress = () => `2001:db8::${randomBytes(2).toString('hex')}:${randomBytes(2).toString('hex')}`;

function rateLimitHeaders(headers: Headers) {
  return {
    limit: headers.get('x-ratelimit-limit'),
    remaining: headers.get('x-ratelimit-remaining'),
    reset: headers.get('x-ratelimit-reset'),
  };
}

function expectResetInCurrentMinute(reset: string | null) {
  expect(reset).toMatch(/^\d+$/);
  const seconds = Number(reset);
  const now = Date.now() / 1000;
  // Unix seconds, not milliseconds: within the next minute.
  expect(seconds).toBeGreaterThan(now);
  expect(seconds).toBeLessThanOrEqual(Math.ceil(now) + 60);
}

describe('per-key rate limit', () => {
  it('allows RATE_LIMIT_PER_MINUTE requests a minute, then answers 429 Too many requests', async () => {
    await awayFromWindowEdge();
    const client = apiClient(server.baseUrl, await fixture.key());

    const allowed = [];
    for (let i = 0; i < LIMIT; i++) allowed.push(await client.get('/web/statuses'));
    const denied = await client.get('/web/statuses');

    expect(allowed.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(allowed.map((r) => r.headers.get('x-ratelimit-remaining'))).toEqual(['4', '3', '2', '1', '0']);
    expect(denied.status).toBe(429);
    expect(denied.body).toEqual(TOO_MANY);
  });

  it('success responses carry X-RateLimit-Limit, -Remaining and -Reset in Unix seconds', async () => {
    await awayFromWindowEdge();
    const response = await apiClient(server.baseUrl, await fixture.key()).get('/web/tasks');

    expect(response.status).toBe(200);
    const headers = rateLimitHeaders(response.headers);
    expect(headers.limit).toBe(String(LIMIT));
    expect(headers.remaining).toBe(String(LIMIT - 1));
    expectResetInCurrentMinute(headers.reset);
  });

  it('responses carry the IETF RateLimit-Policy and RateLimit fields with the same figures', async () => {
    await awayFromWindowEdge();
    const client = apiClient(server.baseUrl, await fixture.key());
    await client.get('/web/statuses');

    const response = await client.get('/web/statuses');

    expect(response.headers.get('ratelimit-policy')).toBe(`"per-key";q=${LIMIT};w=60`);
    const [, remaining, seconds] = /^"per-key";r=(\d+);t=(\d+)$/.exec(response.headers.get('ratelimit') ?? '') ?? [];
    expect(remaining).toBe(String(LIMIT - 2));
    expect(remaining).toBe(response.headers.get('x-ratelimit-remaining'));
    // t counts the seconds to the moment X-RateLimit-Reset names.
    expect(Math.abs(Number(response.headers.get('x-ratelimit-reset')) - (Date.now() / 1000 + Number(seconds)))).toBeLessThanOrEqual(2);
  });

  it('a 429 says r=0 in RateLimit, and t matches Retry-After', async () => {
    await awayFromWindowEdge();
    const client = apiClient(server.baseUrl, await fixture.key());
    for (let i = 0; i < LIMIT; i++) await client.get('/web/labels');

    const denied = await client.get('/web/labels');

    expect(denied.status).toBe(429);
    expect(denied.headers.get('ratelimit')).toBe(`"per-key";r=0;t=${denied.headers.get('retry-after')}`);
  });

  it('a 429 carries Retry-After in whole seconds and the rate-limit headers', async () => {
    await awayFromWindowEdge();
    const client = apiClient(server.baseUrl, await fixture.key());
    for (let i = 0; i < LIMIT; i++) await client.get('/web/labels');

    const denied = await client.get('/web/labels');

    expect(denied.status).toBe(429);
    const retryAfter = denied.headers.get('retry-after');
    expect(retryAfter).toMatch(/^\d+$/);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(retryAfter)).toBeLessThanOrEqual(60);
    const headers = rateLimitHeaders(denied.headers);
    expect(headers.limit).toBe(String(LIMIT));
    expect(headers.remaining).toBe('0');
    expectResetInCurrentMinute(headers.reset);
    // Retry-After points at the end of the window that X-RateLimit-Reset names.
    expect(Math.abs(Number(headers.reset) - (Date.now() / 1000 + Number(retryAfter)))).toBeLessThanOrEqual(2);
  });

  it('error responses carry the headers, and a 404 or a 403 counts like any request', async () => {
    await awayFromWindowEdge();
    const client = apiClient(server.baseUrl, await fixture.key({ scopes: ['task:read'] }));

    const notFound = await client.get('/no-such-project/statuses');
    const forbidden = await client.post('/web/tasks', { title: 'No create scope' });
    const invalid = await client.get('/web/tasks?limit=1000');
    const ok = await client.get('/web/statuses');

    expect([notFound.status, forbidden.status, invalid.status, ok.status]).toEqual([404, 403, 400, 200]);
    expect([notFound, forbidden, invalid, ok].map((r) => r.headers.get('x-ratelimit-remaining'))).toEqual(['4', '3', '2', '1']);
    for (const response of [notFound, forbidden, invalid]) {
      expect(response.headers.get('x-ratelimit-limit')).toBe(String(LIMIT));
      expectResetInCurrentMinute(response.headers.get('x-ratelimit-reset'));
      expect(response.headers.get('retry-after')).toBeNull();
    }
  });

  it('429s do not use up more of the window', async () => {
    await awayFromWindowEdge();
    const client = apiClient(server.baseUrl, await fixture.key());
    for (let i = 0; i < LIMIT; i++) await client.get('/web/members');

    const denied = [];
    for (let i = 0; i < 3; i++) denied.push(await client.get('/web/members'));

    expect(denied.map((r) => r.status)).toEqual([429, 429, 429]);
    expect(denied.map((r) => r.headers.get('x-ratelimit-remaining'))).toEqual(['0', '0', '0']);
  });

  it('another key of the same workspace is unaffected', async () => {
    await awayFromWindowEdge();
    const spent = apiClient(server.baseUrl, await fixture.key());
    const fresh = apiClient(server.baseUrl, await fixture.key());
    for (let i = 0; i < LIMIT; i++) await spent.get('/web/statuses');
    expect((await spent.get('/web/statuses')).status).toBe(429);

    const response = await fresh.get('/web/statuses');

    expect(response.status).toBe(200);
    expect(response.headers.get('x-ratelimit-remaining')).toBe(String(LIMIT - 1));
  });

  it('the limit is per key, not per client address', async () => {
    await awayFromWindowEdge();
    const client = apiClient(server.baseUrl, await fixture.key());
    const statuses = [];
    for (let i = 0; i <= LIMIT; i++) statuses.push((await client.get('/web/statuses', { 'x-forwarded-for': uniqueAddress() })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });

  it('the multipart upload shares the limit', async () => {
    await awayFromWindowEdge();
    const key = await fixture.key();
    const client = apiClient(server.baseUrl, key);
    const task = await client.post('/web/tasks', { title: 'Upload target' });
    for (let i = 0; i < LIMIT - 1; i++) await client.get('/web/statuses');
    const form = new FormData();
    form.append('file', new Blob(['x']), 'x.txt');

    const response = await client.post(`/web/tasks/${task.body.id}/attachments`, form);

    expect(response.status).toBe(429);
    expect(response.body).toEqual(TOO_MANY);
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });
});

describe('bad keys per client address', () => {
  it(`answers 401 to ${BAD_KEY_LIMIT} bad keys a minute from one address, then 429`, async () => {
    await awayFromWindowEdge();
    const address = uniqueAddress();
    const anon = apiClient(server.baseUrl);

    const statuses = [];
    for (let i = 0; i < BAD_KEY_LIMIT; i++) {
      statuses.push(
        (await anon.get('/web/statuses', { authorization: `Bearer tk_${randomBytes(20).toString('hex')}`, 'x-forwarded-for': address }))
          .status,
      );
    }
    const denied = await anon.get('/web/statuses', { 'x-forwarded-for': address });

    expect(statuses).toEqual(Array(BAD_KEY_LIMIT).fill(401));
    expect(denied.status).toBe(429);
    expect(denied.body).toEqual(TOO_MANY);
    expect(Number(denied.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(denied.headers.get('x-ratelimit-limit')).toBe(String(BAD_KEY_LIMIT));
    expect(denied.headers.get('x-ratelimit-remaining')).toBe('0');
  });

  it('each 401 says how many more bad keys its address may send before the 429', async () => {
    await awayFromWindowEdge();
    const address = uniqueAddress();
    const anon = apiClient(server.baseUrl);
    const first = await anon.get('/web/statuses', { 'x-forwarded-for': address });
    const second = await anon.get('/web/statuses', { 'x-forwarded-for': address });

    expect([first.status, second.status]).toEqual([401, 401]);
    expect(first.headers.get('x-ratelimit-limit')).toBe(String(BAD_KEY_LIMIT));
    expect(first.headers.get('ratelimit-policy')).toBe(`"per-address";q=${BAD_KEY_LIMIT};w=60`);
    expect(Number(first.headers.get('x-ratelimit-remaining'))).toBe(Number(second.headers.get('x-ratelimit-remaining')) + 1);
    expect(second.headers.get('retry-after')).toBeNull();
  });

  it('the per-address limit names its own policy in RateLimit-Policy', async () => {
    await awayFromWindowEdge();
    const address = uniqueAddress();
    const anon = apiClient(server.baseUrl);
    for (let i = 0; i < BAD_KEY_LIMIT; i++) await anon.get('/web/statuses', { 'x-forwarded-for': address });

    const denied = await anon.get('/web/statuses', { 'x-forwarded-for': address });

    expect(denied.status).toBe(429);
    expect(denied.headers.get('ratelimit-policy')).toBe(`"per-address";q=${BAD_KEY_LIMIT};w=60`);
    expect(denied.headers.get('ratelimit')).toMatch(/^"per-address";r=0;t=\d+$/);
  });

  it('another address is unaffected', async () => {
    await awayFromWindowEdge();
    const blocked = uniqueAddress();
    const anon = apiClient(server.baseUrl);
    for (let i = 0; i <= BAD_KEY_LIMIT; i++) await anon.get('/web/statuses', { 'x-forwarded-for': blocked });
    expect((await anon.get('/web/statuses', { 'x-forwarded-for': blocked })).status).toBe(429);

    const response = await anon.get('/web/statuses', { 'x-forwarded-for': uniqueAddress() });

    expect(response.body).toEqual({ statusCode: 401, message: 'Invalid API key' });
  });

  it('a blocked address still serves a valid key: the limit only turns bad keys into 429', async () => {
    await awayFromWindowEdge();
    const address = uniqueAddress();
    const key = await fixture.key();
    const anon = apiClient(server.baseUrl);
    for (let i = 0; i <= BAD_KEY_LIMIT; i++) await anon.get('/web/statuses', { 'x-forwarded-for': address });

    const bad = await anon.get('/web/statuses', {
      authorization: `Bearer tk_${randomBytes(20).toString('hex')}`,
      'x-forwarded-for': address,
    });
    const good = await anon.get('/web/statuses', { authorization: `Bearer ${key}`, 'x-forwarded-for': address });

    expect(bad.status).toBe(429);
    expect(good.status).toBe(200);
    expect(good.headers.get('x-ratelimit-limit')).toBe(String(LIMIT));
  });

  it('malformed keys from a blocked address are answered 429 without touching the database', async () => {
    await awayFromWindowEdge();
    const address = uniqueAddress();
    const anon = apiClient(server.baseUrl);
    for (let i = 0; i <= BAD_KEY_LIMIT; i++) await anon.get('/web/statuses', { 'x-forwarded-for': address });

    const touched = await countDatabaseUse(async () => {
      const responses = [];
      for (let i = 0; i < 5; i++)
        responses.push(await anon.get('/web/statuses', { authorization: `Bearer tk_${'z'.repeat(40)}`, 'x-forwarded-for': address }));
      expect(responses.map((r) => r.status)).toEqual([429, 429, 429, 429, 429]);
    });

    expect(touched).toEqual([]);
  });

  it('good keys from an address do not count towards its bad-key limit', async () => {
    await awayFromWindowEdge();
    const address = uniqueAddress();
    const keys = await Promise.all(Array.from({ length: 8 }, () => fixture.key()));
    const anon = apiClient(server.baseUrl);
    for (let round = 0; round < 4; round++) {
      for (const key of keys)
        expect((await anon.get('/web/statuses', { authorization: `Bearer ${key}`, 'x-forwarded-for': address })).status).toBe(200);
    }
    expect((await anon.get('/web/statuses', { 'x-forwarded-for': address })).status).toBe(401);
  });
});

/**
 * Runs `work` with the process's Prisma client wrapped so that every use of it
 * is recorded; returns what was used (model or method names).
 */
async function countDatabaseUse(work: () => Promise<void>): Promise<string[]> {
  const { db } = await import('../../server/db/client');
  const holder = globalThis as unknown as { __taskApiDb?: ReturnType<typeof db> };
  const real = db();
  const used: string[] = [];
  holder.__taskApiDb = new Proxy(real, {
    get(target, property) {
      if (typeof property === 'string' && !property.startsWith('_') && property !== 'then') used.push(property);
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  try {
    await work();
  } finally {
    holder.__taskApiDb = real;
  }
  return used;
}
