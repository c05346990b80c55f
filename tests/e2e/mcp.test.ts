import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCOPES } from '../../server/keys/scopes';
import { createWorkspaceFixture } from '../support/fixtures';
import { callTool, mcpClient } from '../support/mcp';
import { PATIENCE_MS } from '../support/patience';
import { freePort } from '../support/ports';
import { ensureBuild } from '../support/build';
import { startAppServer, type AppServer } from './app-server';
import { PROJECT_OPERATIONS } from '../support/operations';

let key: string;

beforeAll(async () => {
  await ensureBuild();
  key = await (await createWorkspaceFixture()).key({ scopes: [...SCOPES] });
});

/** Creates a task and uploads a file through MCP, then downloads it through the link the tool answered. */
async function uploadRoundTrip(client: Client) {
  const task = await callTool(client, 'create_task', { projectSlug: 'web', title: 'Through MCP' });
  expect(task.isError).toBeFalsy();
  const bytes = randomBytes(64 * 1024);
  const uploaded = await callTool(client, 'upload_attachment', {
    projectSlug: 'web',
    taskId: (task.structuredContent as { externalId: string }).externalId,
    filename: 'trace.bin',
    content: bytes.toString('base64'),
  });
  expect(uploaded.isError).toBeFalsy();
  const download = await fetch((uploaded.structuredContent as { url: string }).url);
  expect(download.status).toBe(200);
  expect(Buffer.from(await download.arrayBuffer()).equals(bytes)).toBe(true);
}

describe('the production server (npm start)', () => {
  let app: AppServer;

  beforeAll(async () => {
    app = await startAppServer(process.env.DATABASE_URL!);
  });

  afterAll(async () => {
    await app?.stop();
  });

  it('serves /v1/mcp from its own edge: tools listed, called, a file uploaded and downloaded byte-identical', async () => {
    const client = await mcpClient(app.baseUrl, key);
    try {
      expect((await client.listTools()).tools).toHaveLength(PROJECT_OPERATIONS.length);
      await uploadRoundTrip(client);
    } finally {
      await client.close();
    }
    const refused = await fetch(`${app.baseUrl}/v1/mcp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${app.baseUrl}/.well-known/oauth-protected-resource/v1/mcp"`,
    );
  });
});

describe('the App Router route (next start, as next dev and Vercel serve it)', () => {
  let baseUrl: string;
  let stop: () => Promise<void>;

  beforeAll(async () => {
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'taskapi-e2e-next-'));
    const nextBin = createRequire(import.meta.url).resolve('next/dist/bin/next');
    const child = spawn(process.execPath, [nextBin, 'start', '--port', String(port), '--hostname', '127.0.0.1'], {
      cwd: path.resolve(import.meta.dirname, '../..'),
      stdio: 'ignore',
      env: {
        ...process.env,
        NODE_ENV: 'production',
        NEXT_TELEMETRY_DISABLED: '1',
        DATABASE_URL: process.env.DATABASE_URL,
        DATABASE_POOL_SIZE: '2',
        APP_URL: baseUrl,
        DATA_DIR: dataDir,
        RATE_LIMIT_PER_MINUTE: '10000',
      },
    });
    stop = async () => {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
      await fs.rm(dataDir, { recursive: true, force: true });
    };
    for (let started = Date.now(); Date.now() - started < PATIENCE_MS;) {
      const up = await fetch(`${baseUrl}/v1/mcp`, { method: 'OPTIONS' }).then(
        (response) => response.status === 204,
        () => false,
      );
      if (up) return;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    throw new Error('next start did not come up');
  });

  afterAll(async () => {
    await stop?.();
  });

  it('serves /v1/mcp through app/v1/mcp/route.ts with the same tools and answers', async () => {
    const client = await mcpClient(baseUrl, key);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain('upload_attachment');
      await uploadRoundTrip(client);
    } finally {
      await client.close();
    }
    const refused = await fetch(`${baseUrl}/v1/mcp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${baseUrl}/.well-known/oauth-protected-resource/v1/mcp"`,
    );
  });
});
