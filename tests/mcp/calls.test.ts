import { randomBytes } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settleKeyUsage } from '../../server/auth/last-used';
import { settleStorage } from '../../server/storage/storage';
import { useApi } from '../support/api';
import { errorOf, type Answer } from '../support/client';
import { callTool, mcpClient } from '../support/mcp';

const api = useApi();
let mcp: Client;

beforeAll(async () => {
  mcp = await mcpClient(api.server.baseUrl, api.key);
});

afterAll(async () => {
  await mcp.close();
  await settleStorage();
  await settleKeyUsage();
});

async function call(name: string, args: Record<string, unknown>) {
  const result = await callTool(mcp, name, args);
  return { ...result, json: result.isError ? undefined : JSON.parse(result.text) };
}

/** The REST API's answer to the same request, which the tool's result must equal. */
async function restGet<P extends string>(restPath: P) {
  const response = await api.client.get(restPath);
  expect(response.status).toBeLessThan(300);
  return response.body;
}

async function restPost<P extends string>(restPath: P, body: unknown) {
  const response = await api.client.post(restPath, body);
  expect(response.status).toBeLessThan(300);
  return response.body;
}

/** Links point at APP_URL; the test server listens elsewhere. */
const onTestServer = (url: string) => {
  const link = new URL(url);
  return `${api.server.baseUrl}${link.pathname}${link.search}`;
};

async function createTask(title: string) {
  const response = await api.client.post('/web/tasks', { title });
  expect(response.status).toBe(201);
  return response.body;
}

describe('every tool answers what the REST API answers', () => {
  it.each([
    ['list_statuses', 'statuses'],
    ['list_labels', 'labels'],
    ['list_members', 'members'],
  ] as const)('%s: the REST list as text, and under `%s` as structured content', async (tool, listKey) => {
    const result = await call(tool, { projectSlug: 'web' });

    const expected = await restGet(`/web/${listKey}`);
    expect(expected.length).toBeGreaterThan(0);
    expect(result.isError).toBeFalsy();
    expect(result.json).toEqual(expected);
    expect(result.structuredContent).toEqual({ [listKey]: expected });
  });

  it('list_tasks: the same page, filters and order as the REST query', async () => {
    await createTask('MCP list one');
    await createTask('MCP list two');

    const result = await call('list_tasks', { projectSlug: 'web', search: 'MCP list', limit: 1, page: 2, sort: 'createdAt', order: 'asc' });

    const expected = await restGet('/web/tasks?search=MCP%20list&limit=1&page=2&sort=createdAt&order=asc');
    expect(expected.tasks).toHaveLength(1);
    expect(result.json).toEqual(expected);
    expect(result.structuredContent).toEqual(expected);
  });

  it('get_task: the task by external ID, case-insensitive, as REST gives it', async () => {
    const task = await createTask('MCP get');

    const result = await call('get_task', { projectSlug: 'web', taskId: task.externalId.toLowerCase() });

    expect(result.structuredContent).toEqual(await restGet(`/web/tasks/${task.externalId}`));
    expect(result.json).toEqual(result.structuredContent);
  });

  it('create_task: creates the task REST then reads, with the same defaults as a REST create', async () => {
    const fields = {
      title: '  Ship the MCP server  ',
      description: 'From an agent',
      priority: 'high',
      dueDate: '2027-01-31T17:00:00+01:00',
      assigneeIds: [api.fixture.members.ada.id],
      labelIds: [api.fixture.labels.bug.id],
    };

    const result = await call('create_task', { projectSlug: 'web', ...fields });
    const twin = await restPost('/web/tasks', fields);

    expect(result.isError).toBeFalsy();
    const created = result.structuredContent as Record<string, unknown>;
    expect(created).toEqual(await restGet(`/web/tasks/${created.id as string}`));
    const variable = {
      id: expect.any(String),
      externalId: expect.any(String),
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    };
    expect(created).toEqual({ ...twin, ...variable });
    expect(created).toMatchObject({ title: 'Ship the MCP server', dueDate: '2027-01-31T16:00:00.000Z', status: { name: 'To Do' } });
  });

  it('update_task: changes only the fields given, as PATCH does', async () => {
    const task = await createTask('MCP update');

    const result = await call('update_task', {
      projectSlug: 'web',
      taskId: task.externalId,
      statusId: api.fixture.statuses.webReview.id,
      description: null,
    });

    expect(result.structuredContent).toEqual(await restGet(`/web/tasks/${task.id}`));
    expect(result.structuredContent).toMatchObject({ title: 'MCP update', category: 'in_progress', description: null });
  });

  it('delete_task: answers {success: true} and the task is gone', async () => {
    const task = await createTask('MCP delete');

    const result = await call('delete_task', { projectSlug: 'web', taskId: task.id });

    expect(result.structuredContent).toEqual({ success: true });
    expect(result.json).toEqual({ success: true });
    expect((await api.client.get(`/web/tasks/${task.id}`)).status).toBe(404);
  });

  it('list_deleted_tasks: the deleted tasks REST lists since a time', async () => {
    const since = new Date(Date.now() - 60_000).toISOString();
    const task = await createTask('MCP deleted');
    expect((await call('delete_task', { projectSlug: 'web', taskId: task.id })).isError).toBeFalsy();

    const result = await call('list_deleted_tasks', { projectSlug: 'web', since });

    const expected = await restGet(`/web/tasks/deleted?since=${encodeURIComponent(since)}`);
    expect(expected.deleted.map((deleted: { id: string }) => deleted.id)).toContain(task.id);
    expect(result.structuredContent).toEqual(expected);
  });

  it('add_comment and list_comments: the comment REST lists, attributed to the key', async () => {
    const task = await createTask('MCP comments');

    const added = await call('add_comment', { projectSlug: 'web', taskId: task.externalId, content: 'Looks good\nto me' });
    const listed = await call('list_comments', { projectSlug: 'web', taskId: task.externalId });

    const expected = await restGet(`/web/tasks/${task.id}/comments`);
    expect(expected).toEqual([added.structuredContent]);
    expect(listed.structuredContent).toEqual({ comments: expected });
    expect(listed.json).toEqual(expected);
    expect(added.structuredContent).toMatchObject({ content: 'Looks good\nto me', authorName: 'CI bot' });
  });

  it('upload_attachment and get_attachment: the bytes download identical through the returned one-hour URL', async () => {
    const task = await createTask('MCP upload');
    const bytes = randomBytes(256 * 1024);

    const uploaded = await call('upload_attachment', {
      projectSlug: 'web',
      taskId: task.externalId,
      filename: '../reports/scan.png',
      content: bytes.toString('base64'),
    });

    expect(uploaded.isError).toBeFalsy();
    const attachment = uploaded.structuredContent as { id: string; url: string };
    expect(attachment).toMatchObject({ filename: 'scan.png', mimeType: 'image/png', size: bytes.length });
    const download = await fetch(onTestServer(attachment.url));
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer()).equals(bytes)).toBe(true);

    const got = await call('get_attachment', { projectSlug: 'web', taskId: task.id, attachmentId: attachment.id });
    const expected = await restGet(`/web/tasks/${task.id}/attachments/${attachment.id}`);
    // Each answer signs its own link, valid one hour from its request.
    expect(got.structuredContent).toEqual({ ...expected, url: expect.any(String) });
    expect(uploaded.structuredContent).toEqual({ ...expected, url: expect.any(String) });
    const again = await fetch(onTestServer((got.structuredContent as { url: string }).url));
    expect(Buffer.from(await again.arrayBuffer()).equals(bytes)).toBe(true);
    expect((await restGet(`/web/tasks/${task.id}`)).attachments).toEqual([{ id: attachment.id, filename: 'scan.png' }]);
  });

  it('upload_attachment: keeps the MIME type given, and takes an empty file', async () => {
    const task = await createTask('MCP empty upload');

    const result = await call('upload_attachment', {
      projectSlug: 'web',
      taskId: task.id,
      filename: 'empty',
      content: '',
      mimeType: 'text/markdown',
    });

    expect(result.structuredContent).toMatchObject({ filename: 'empty', mimeType: 'text/markdown', size: 0 });
  });
});

describe('refusals are tool errors whose text is the REST answer', () => {
  async function expectSameRefusal(tool: string, args: Record<string, unknown>, restCall: () => Promise<Answer>) {
    const result = await call(tool, args);
    const response = await restCall();
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    const error = errorOf(response);
    expect(result.text).toBe(`${error.statusCode} ${error.message}`);
    return result.text;
  }

  it('400: the field and the rule', async () => {
    const text = await expectSameRefusal('create_task', { projectSlug: 'web', title: '   ' }, () =>
      api.client.post('/web/tasks', { title: '   ' }),
    );
    expect(text).toBe('400 title: must be 1 to 500 characters');
  });

  it('400: several problems joined, and unknown fields named', async () => {
    const args = { title: 'x', priority: 'asap', assigneeIds: 'ada', colour: 'red' };
    const text = await expectSameRefusal('create_task', { projectSlug: 'web', ...args }, () => api.client.post('/web/tasks', args));
    expect(text).toContain('Unknown field: colour');
    expect(text).toContain('priority: must be one of none, low, medium, high, urgent');
  });

  it('400: list_tasks outside its bounds', async () => {
    const text = await expectSameRefusal('list_tasks', { projectSlug: 'web', limit: 101 }, () => api.client.get('/web/tasks?limit=101'));
    expect(text).toBe('400 limit: must be a whole number from 1 to 100');
  });

  it('404: an unknown task, and an unknown project', async () => {
    expect(
      await expectSameRefusal('get_task', { projectSlug: 'web', taskId: 'WEB-999999' }, () => api.client.get('/web/tasks/WEB-999999')),
    ).toBe('404 Task not found');
    expect(await expectSameRefusal('list_statuses', { projectSlug: 'nowhere' }, () => api.client.get('/nowhere/statuses'))).toBe(
      '404 Project not found',
    );
  });

  it('404: an attachment of another task', async () => {
    const task = await createTask('MCP missing attachment');
    const missing = '0b7f3c5e-8a51-4d6e-9a3b-5c2f1e7d9a40';
    const text = await expectSameRefusal('get_attachment', { projectSlug: 'web', taskId: task.id, attachmentId: missing }, () =>
      api.client.get(`/web/tasks/${task.id}/attachments/${missing}`),
    );
    expect(text).toBe('404 Attachment not found');
  });

  it('403: a tool the key lacks the scope for, though it is not listed to that key', async () => {
    const readOnly = await api.fixture.key({ scopes: ['task:read'] });
    const client = await mcpClient(api.server.baseUrl, readOnly);
    try {
      const result = await callTool(client, 'create_task', { projectSlug: 'web', title: 'Not allowed' });
      const response = await api.clientWith(readOnly).post('/web/tasks', { title: 'Not allowed' });
      expect(result.isError).toBe(true);
      expect(result.text).toBe('403 Missing required scope: task:create');
      expect(response.body).toEqual({ statusCode: 403, message: 'Missing required scope: task:create' });
    } finally {
      await client.close();
    }
  });

  it('403: a project outside a project-scoped key', async () => {
    const apiOnly = await api.fixture.key({ projectId: api.fixture.projects.api.id });
    const client = await mcpClient(api.server.baseUrl, apiOnly);
    try {
      const result = await callTool(client, 'list_tasks', { projectSlug: 'web' });
      expect(result.text).toBe('403 API key does not have access to project web');
      expect((await callTool(client, 'list_tasks', { projectSlug: 'api' })).isError).toBeFalsy();
    } finally {
      await client.close();
    }
  });

  it('400: upload_attachment content that is not base64', async () => {
    const task = await createTask('MCP bad base64');
    const result = await call('upload_attachment', { projectSlug: 'web', taskId: task.id, filename: 'a.txt', content: 'not base64!' });
    expect(result.isError).toBe(true);
    expect(result.text).toBe('400 content: must be base64 (RFC 4648: A-Z, a-z, 0-9, +, / with = padding)');
  });

  it('413: upload_attachment over 10 MB, with the REST API message', async () => {
    const task = await createTask('MCP too large');
    const content = Buffer.alloc(10 * 1024 * 1024 + 1).toString('base64');
    const result = await call('upload_attachment', { projectSlug: 'web', taskId: task.id, filename: 'big.bin', content });
    expect(result.isError).toBe(true);
    expect(result.text).toBe('413 File too large: the limit is 10 MB (10485760 bytes)');
    expect((await restGet(`/web/tasks/${task.id}`)).attachments).toEqual([]);
  });

  it('404 before the file is looked at: upload_attachment to an unknown task', async () => {
    const result = await call('upload_attachment', { projectSlug: 'web', taskId: 'WEB-999999', filename: 'a.txt', content: 'aGk=' });
    expect(result.text).toBe('404 Task not found');
  });

  it('an unknown tool is a protocol error, not a tool result', async () => {
    await expect(mcp.callTool({ name: 'drop_database', arguments: {} })).rejects.toThrow(/Unknown tool: drop_database/);
  });
});
