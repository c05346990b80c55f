import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { settleKeyUsage } from '../../server/auth/last-used';
import { apiClient } from '../support/client';
import { createWorkspaceFixture, type WorkspaceFixture } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/http';

// Read by env() on first use, which comes after these lines: a Redis nothing listens on.
process.env.REDIS_URL = 'redis://127.0.0.1:1';
process.env.RATE_LIMIT_PER_MINUTE = '5';
delete process.env.UPSTASH_REDIS_REST_URL;
delete process.env.UPSTASH_REDIS_REST_TOKEN;

let server: TestServer;
let fixture: WorkspaceFixture;

beforeAll(async () => {
  // The outage is logged once a minute; keep it out of the test's output.
  vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  server = await startTestServer();
  fixture = await createWorkspaceFixture();
});

afterAll(async () => {
  await settleKeyUsage();
  await server.close();
  vi.restoreAllMocks();
});

it('with the limiter store unreachable, requests are served and no remaining figure is invented', async () => {
  const client = apiClient(server.baseUrl, await fixture.key());

  const responses = [];
  for (let i = 0; i < 7; i++) responses.push(await client.get('/web/statuses'));

  expect(responses.map((r) => r.status)).toEqual(Array(7).fill(200));
  for (const response of responses) {
    expect(response.headers.get('x-ratelimit-limit')).toBe('5');
    expect(response.headers.get('ratelimit-policy')).toBe('"per-key";q=5;w=60');
    expect(response.headers.get('x-ratelimit-remaining')).toBeNull();
    expect(response.headers.get('x-ratelimit-reset')).toBeNull();
    expect(response.headers.get('ratelimit')).toBeNull();
  }
});
