import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { procedureMetas } from '../../server/api/operation';
import { publicRouter } from '../../server/api/router';
import { db } from '../../server/db/client';
import { createApiKey } from '../../server/keys/manage';
import { SCOPES } from '../../server/keys/scopes';
import { API_TOOLS } from '../../server/mcp/tools';
import { flushRequestLog } from '../../server/request-log/flush';
import { listRequests } from '../../server/request-log/list';
import { useApi } from '../support/api';
import { callTool, mcpClient } from '../support/mcp';
import { FIXTURE_AUDIT } from '../support/fixtures';

const api = useApi();

// A value for each path parameter: the request reaches its operation, whatever it answers.
const PARAMS: Record<string, string> = { projectSlug: 'web', taskId: 'WEB-999999', attachmentId: randomUUID(), uploadId: randomUUID() };

describe('the request log records every route', () => {
  it('of the route table, and every MCP tool, however each answers', async () => {
    const { id, key } = await createApiKey(
      db(),
      api.fixture.workspace.id,
      { name: 'Walker', scopes: [...SCOPES], projectId: null, expiresAt: null },
      null,
      FIXTURE_AUDIT,
    );
    const expected = new Map<string, string>();
    for (const meta of procedureMetas(publicRouter).values()) {
      const { method, path } = meta.openapi!;
      const concrete = path.replace(/\{(\w+)\}/g, (_, name: string) => PARAMS[name]!);
      const answer = await fetch(`${api.server.baseUrl}/v1/public${concrete}`, {
        method,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: method === 'POST' || method === 'PATCH' ? '{}' : undefined,
      });
      await answer.arrayBuffer();
      expected.set(answer.headers.get('x-request-id')!, `${method} /v1/public${path}`);
    }
    const agent = await mcpClient(api.server.baseUrl, key);
    try {
      for (const { tool } of API_TOOLS) {
        await callTool(agent, tool.name, {});
        expected.set(`tool ${tool.name}`, `POST tools/call ${tool.name}`);
      }
    } finally {
      await agent.close();
    }
    expect(expected.size).toBe(procedureMetas(publicRouter).size + API_TOOLS.length);

    await flushRequestLog();
    const { requests } = await listRequests(db(), api.fixture.workspace.id, { principalId: id, limit: 100 });
    const recorded = new Set(requests.map((r) => `${r.method} ${r.route}`));
    const restRecorded = new Map(requests.map((r) => [r.requestId, `${r.method} ${r.route}`]));
    for (const [requestId, route] of expected) {
      if (requestId.startsWith('tool ')) expect(recorded, route).toContain(route);
      else expect(restRecorded.get(requestId), route).toBe(route);
    }
  });
});
