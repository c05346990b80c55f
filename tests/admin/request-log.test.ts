import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { db } from '../../server/db/client';
import { createApiKey } from '../../server/keys/manage';
import { flushRequestLog } from '../../server/request-log/flush';
import { useApi } from '../support/api';
import { runAdminInProcess } from '../support/cli';
import { FIXTURE_AUDIT } from '../support/fixtures';

const api = useApi();

const FIELDS = [
  'requestId',
  'occurredAt',
  'keyId',
  'appId',
  'method',
  'route',
  'path',
  'status',
  'durationMs',
  'idempotencyKey',
  'replayed',
  'ip',
  'userAgent',
  'message',
];

interface Listed {
  workspace: string;
  requests: Record<string, unknown>[];
}

describe('admin requests list and usage', () => {
  it('print exactly one object each, newest first, through the filters', async () => {
    const { id, key } = await createApiKey(
      db(),
      api.fixture.workspace.id,
      { name: 'CLI', scopes: ['task:read', 'task:create'], projectId: null, expiresAt: null },
      null,
      FIXTURE_AUDIT,
    );
    const client = api.clientWith(key);
    const idempotencyKey = randomUUID();
    const created = await client.post('/web/tasks', { title: 'From the CLI test' }, { 'idempotency-key': idempotencyKey });
    const missing = await client.get('/web/tasks/WEB-999999');
    expect([created.status, missing.status]).toEqual([201, 404]);
    await flushRequestLog();

    const slug = api.fixture.workspace.slug;
    const all = await runAdminInProcess<Listed>(['requests', 'list', '--workspace', slug, '--key', id, '--json']);
    expect(all.code).toBe(0);
    expect(Object.keys(all.json)).toEqual(['workspace', 'requests']);
    expect(all.json.workspace).toBe(slug);
    expect(all.json.requests.map((r) => r.status)).toEqual([404, 201]);
    expect(Object.keys(all.json.requests[0]!)).toEqual(FIELDS);

    const failed = await runAdminInProcess<Listed>(['requests', 'list', '--workspace', slug, '--key', id, '--status', '4xx', '--json']);
    expect(failed.json.requests).toMatchObject([
      { status: 404, message: 'Task not found', requestId: missing.headers.get('x-request-id') },
    ]);
    const byRequest = await runAdminInProcess<Listed>([
      'requests',
      'list',
      '--workspace',
      slug,
      '--request-id',
      created.headers.get('x-request-id')!,
      '--json',
    ]);
    expect(byRequest.json.requests).toMatchObject([{ status: 201, keyId: id }]);
    const byIdempotencyKey = await runAdminInProcess<Listed>([
      'requests',
      'list',
      '--workspace',
      slug,
      '--idempotency-key',
      idempotencyKey,
      '--limit',
      '1',
      '--json',
    ]);
    expect(byIdempotencyKey.json.requests).toMatchObject([{ status: 201, idempotencyKey }]);

    const usage = await runAdminInProcess<{ workspace: string; total: Record<string, number>; buckets: { requests: number }[] }>([
      'usage',
      '--workspace',
      slug,
      '--key',
      id,
      '--json',
    ]);
    expect(usage.code).toBe(0);
    expect(Object.keys(usage.json)).toEqual(['workspace', 'total', 'buckets']);
    expect(usage.json.total).toEqual({ '2xx': 1, '4xx': 1, '429': 0, '5xx': 0 });
    expect(usage.json.buckets.reduce((sum, bucket) => sum + bucket.requests, 0)).toBe(2);

    const bad = await runAdminInProcess(['requests', 'list', '--workspace', slug, '--status', '4x']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--status: must be a status code');
  });
});
