import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../server/db/client';
import { createApiKey } from '../../server/keys/manage';
import { ensureBuild } from '../support/build';
import { FIXTURE_AUDIT, createWorkspaceFixture, type WorkspaceFixture } from '../support/fixtures';
import { PATIENCE_MS } from '../support/patience';
import { createPerson, signIn } from '../support/settings';
import { startAppServer, type AppServer } from './app-server';

let app: AppServer | undefined;
let fx: WorkspaceFixture;

beforeAll(async () => {
  await ensureBuild();
  fx = await createWorkspaceFixture();
});

afterAll(async () => {
  await app?.stop();
});

describe('the request log under npm start', () => {
  it('counts every request exactly, across two server processes, once they have stopped in order', async () => {
    const { id, key } = await createApiKey(
      db(),
      fx.workspace.id,
      { name: 'Counted', scopes: ['task:read'], projectId: null, expiresAt: null },
      null,
      FIXTURE_AUDIT,
    );
    app = await startAppServer(process.env.DATABASE_URL!, { WEB_CONCURRENCY: '2' });
    const sent = { 200: 0, 404: 0 };
    // Six at a time: six connections, which the supervisor hands to its two processes in turn.
    const requests = Array.from({ length: 60 }, (_, i) => (i % 4 === 3 ? '/web/tasks/WEB-999999' : '/web/statuses'));
    for (let i = 0; i < requests.length; i += 6) {
      const answers = await Promise.all(
        requests.slice(i, i + 6).map((path) => fetch(`${app!.baseUrl}/v1/public${path}`, { headers: { authorization: `Bearer ${key}` } })),
      );
      for (const answer of answers) {
        await answer.arrayBuffer();
        sent[answer.status as 200 | 404] += 1;
      }
    }
    expect(sent).toEqual({ 200: 45, 404: 15 });
    // No flush is waited for: an orderly stop writes what each process holds before it exits.
    expect(await app.stop()).toBe(0);
    app = undefined;

    const [logged] = await db().$queryRaw<{ ok: number; missing: number }[]>`
      SELECT count(*) FILTER (WHERE status = 200)::int AS ok, count(*) FILTER (WHERE status = 404)::int AS missing
      FROM request_log.request WHERE principal_id = ${id}::uuid`;
    expect(logged).toMatchObject({ ok: 45, missing: 15 });
    const usage = await db().$queryRaw<{ status_class: string; requests: number; counted: number }[]>`
      SELECT status_class, sum(requests)::int AS requests,
        sum((SELECT sum(c) FROM unnest(histogram) AS c))::int AS counted
      FROM request_log.usage_minute WHERE principal_id = ${id}::uuid GROUP BY 1 ORDER BY 1`;
    expect(usage).toEqual([
      { status_class: '2xx', requests: 45, counted: 45 },
      { status_class: '4xx', requests: 15, counted: 15 },
    ]);
    const [hours] = await db().$queryRaw<{ requests: number }[]>`
      SELECT sum(requests)::int AS requests FROM request_log.usage_hour WHERE principal_id = ${id}::uuid`;
    expect(hours?.requests).toBe(60);
  });

  it("shows the Requests page to an admin, filtered as its URL says, a request's detail and the errors view, and tells a member it is not theirs", async () => {
    app = await startAppServer(process.env.DATABASE_URL!);
    const key = await fx.key({ name: 'Page key' });
    const answer = await fetch(`${app.baseUrl}/v1/public/web/tasks/WEB-999999`, { headers: { authorization: `Bearer ${key}` } });
    expect(answer.status).toBe(404);
    const requestId = answer.headers.get('x-request-id')!;
    const page = async (role: 'admin' | 'member') => {
      const person = await createPerson(fx.workspace.id, role);
      const { cookie } = await signIn(app!.baseUrl, person.email, person.password, new URL(app!.baseUrl).origin);
      return (query: string) =>
        fetch(`${app!.baseUrl}/settings/requests?workspace=${fx.workspace.slug}&${query}`, { headers: { cookie } }).then((r) => r.text());
    };
    const asAdmin = await page('admin');
    const started = Date.now();
    let html = '';
    while (!html.includes(requestId) && Date.now() - started < PATIENCE_MS) html = await asAdmin(`status=4xx`);
    expect(html).toContain(requestId);
    expect(html).toContain('Page key');
    expect(html).toContain('Task not found');
    expect(await asAdmin('status=2xx')).not.toContain(requestId);
    const keyId = (await db().apiKey.findFirstOrThrow({ where: { workspaceId: fx.workspace.id, name: 'Page key' } })).id;
    expect(await asAdmin(`principal=${keyId}&method=GET&route=${encodeURIComponent('/v1/public/{projectSlug}/tasks/{taskId}')}`)).toContain(
      requestId,
    );
    expect(await asAdmin(`principal=${keyId}&method=POST`)).not.toContain(requestId);
    expect(await asAdmin(`until=2026-01-01T00:00`)).not.toContain(requestId);
    const detail = await asAdmin(`request=${requestId}`);
    for (const field of ['Client address', 'User agent', 'Idempotency-Key', '/v1/public/web/tasks/WEB-999999'])
      expect(detail).toContain(field);
    const errors = await asAdmin('view=errors');
    expect(errors).toContain('Task not found');
    expect(errors).toContain('/v1/public/{projectSlug}/tasks/{taskId}');
    expect(await (await page('member'))('')).toContain('only its owners and admins can see its request log');
    await app.stop();
    app = undefined;
  });
});
