import { describe, expect, it } from 'vitest';
import { db } from '../../server/db/client';
import { openSecret } from '../../server/webhooks/secret';
import { createProject } from '../../server/projects/projects';
import { createWorkspace } from '../../server/workspaces/workspaces';
import { runAdminInProcess } from '../support/cli';

process.env.WEBHOOK_ALLOW_PRIVATE_ADDRESSES = 'true';

let counter = 0;
async function workspace() {
  const created = await createWorkspace(db(), { slug: `hooks-${process.pid}-${++counter}`, name: 'Hooks Co' });
  await createProject(db(), { workspaceId: created.id, slug: 'web', name: 'Web', keyPrefix: 'WEB' });
  return created.slug;
}

const create = (ws: string, ...extra: string[]) =>
  runAdminInProcess<{ id: string; secret: string }>([
    'webhook',
    'create',
    '--workspace',
    ws,
    '--url',
    'http://127.0.0.1:9/hook',
    ...extra,
    '--json',
  ]);

describe('admin CLI: webhooks', () => {
  it('webhook create prints the signing secret once, and stores it only sealed', async () => {
    const ws = await workspace();
    const created = await create(ws, '--events', 'task.created,comment.created', '--project', 'web');
    expect(created.code).toBe(0);
    expect(created.json).toMatchObject({
      id: expect.any(String),
      url: 'http://127.0.0.1:9/hook',
      events: ['task.created', 'comment.created'],
      projectId: expect.any(String),
      secret: expect.stringMatching(/^whsec_/),
    });
    const row = await db().webhookEndpoint.findUniqueOrThrow({ where: { id: created.json.id } });
    expect(JSON.stringify(row)).not.toContain(created.json.secret);
    expect(openSecret(row.secretSealed)).toBe(created.json.secret);
  });

  it('webhook create records where it was made, and --previews marks it for preview deployments', async () => {
    const ws = await workspace();
    const plain = await create(ws);
    const marked = await create(ws, '--previews');
    expect(plain.json).toMatchObject({ createdIn: 'production', deliverOnPreviews: false });
    expect(marked.json).toMatchObject({ createdIn: 'production', deliverOnPreviews: true });
    const listed = await runAdminInProcess(['webhook', 'list', '--workspace', ws]);
    expect(listed.stdout).toContain(`${marked.json.id}  enabled  all project events  http://127.0.0.1:9/hook  (previews too)\n`);
    expect(listed.stdout).toContain(`${plain.json.id}  enabled  all project events  http://127.0.0.1:9/hook\n`);
  });

  it('webhook list never shows a secret', async () => {
    const ws = await workspace();
    const created = await create(ws);
    const listed = await runAdminInProcess<{ webhooks: { id: string }[] }>(['webhook', 'list', '--workspace', ws, '--json']);
    expect(listed.code).toBe(0);
    expect(listed.json.webhooks.map((e) => e.id)).toEqual([created.json.id]);
    expect(listed.stdout).not.toContain(created.json.secret);
  });

  it('webhook deliveries lists the deliveries, webhook delete removes the endpoint', async () => {
    const ws = await workspace();
    const created = await create(ws);
    const deliveries = await runAdminInProcess(['webhook', 'deliveries', '--workspace', ws, '--id', created.json.id, '--json']);
    expect(deliveries.json).toEqual({ id: created.json.id, deliveries: [] });
    const deleted = await runAdminInProcess(['webhook', 'delete', '--workspace', ws, '--id', created.json.id, '--json']);
    expect(deleted.code).toBe(0);
    expect(await db().webhookEndpoint.count({ where: { id: created.json.id } })).toBe(0);
    const again = await runAdminInProcess(['webhook', 'delete', '--workspace', ws, '--id', created.json.id]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('Webhook endpoint not found');
  });

  it('refuses a 21st endpoint of a workspace with the reason, saving nothing', async () => {
    const ws = await workspace();
    for (let i = 0; i < 20; i++) expect((await create(ws)).code).toBe(0);
    const refused = await create(ws);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('A workspace has at most 20 webhook endpoints: delete one before adding another');
    expect(await db().webhookEndpoint.count({ where: { workspace: { slug: ws } } })).toBe(20);
  });

  it('refuses an unknown event and a URL that is not http(s), naming the option', async () => {
    const ws = await workspace();
    const badEvent = await create(ws, '--events', 'task.exploded');
    expect(badEvent.code).toBe(2);
    expect(badEvent.stderr).toContain('events: task.exploded is not an event');
    const badUrl = await runAdminInProcess(['webhook', 'create', '--workspace', ws, '--url', 'ftp://example.com/x']);
    expect(badUrl.code).toBe(2);
    expect(badUrl.stderr).toContain('url: must be an absolute http or https URL');
  });
});
