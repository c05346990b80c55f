import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../server/db/client';
import { flushRequestLog } from '../../server/request-log/flush';
import { createWorkspaceFixture, type WorkspaceFixture } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/http';

// Read by env() on first use: this file's server keeps no request log.
process.env.REQUEST_LOG_RETENTION_DAYS = '0';

let server: TestServer;
let fx: WorkspaceFixture;

beforeAll(async () => {
  server = await startTestServer();
  fx = await createWorkspaceFixture();
});

afterAll(async () => {
  await server.close();
});

describe('a server set to keep no request log (REQUEST_LOG_RETENTION_DAYS=0)', () => {
  it('answers as before and records neither the request nor its usage', async () => {
    const answer = await fetch(`${server.baseUrl}/v1/public/web/statuses`, { headers: { authorization: `Bearer ${await fx.key()}` } });
    expect(answer.status).toBe(200);
    const requestId = answer.headers.get('x-request-id')!;

    await flushRequestLog();

    const recorded = await db().$queryRaw<{ requests: number; minutes: number }[]>`
      SELECT (SELECT count(*)::int FROM request_log.request WHERE request_id = ${requestId}::uuid) AS requests,
             (SELECT count(*)::int FROM request_log.usage_minute WHERE workspace_id = ${fx.workspace.id}::uuid) AS minutes`;
    expect(recorded).toEqual([{ requests: 0, minutes: 0 }]);
  });
});
