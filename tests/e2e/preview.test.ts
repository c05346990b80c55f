import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import type { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { db } from '../../server/db/client';
import { createApiKey } from '../../server/keys/manage';
import { createProject } from '../../server/projects/projects';
import { MAX_SETUP_ATTEMPTS } from '../../server/setup/attempts';
import { SETUP_DONE, WRONG_SETUP_CODE } from '../../server/setup/first-owner';
import { createEndpoint } from '../../server/webhooks/endpoints';
import type { deliveryListSchema } from '../../server/webhooks/schemas';
import { ensureBuild } from '../support/build';
import { apiClient, type Answer } from '../support/client';
import { startFakeBlobApi, TOKEN as BLOB_TOKEN, type FakeBlobApi } from '../support/fake-blob-api';
import { FIXTURE_AUDIT } from '../support/fixtures';
import { loopbackAddress, requestFrom, type LoopbackResponse } from '../support/loopback-client';
import { PATIENCE_MS } from '../support/patience';
import { settingsClient, signIn } from '../support/settings';
import { startReceiver } from '../webhooks/receiver';
import { startAppServer, type AppServer } from './app-server';

// Endpoints on the receiver's loopback port, saved by this process and by the server alike.
process.env.WEBHOOK_ALLOW_PRIVATE_ADDRESSES = 'true';
const CRON_SECRET = `cron-${randomUUID()}`;
const PASSWORD = 'correct horse battery staple';

type DeliveryList = z.output<typeof deliveryListSchema>;

let app: AppServer;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let blob: FakeBlobApi;
// Every answer and page this file is sent, to look for the setup code in.
const seen: string[] = [];

/**
 * `npm start` with the environment a Vercel preview deployment has: VERCEL=1,
 * VERCEL_ENV=preview, the secrets Vercel requires and a shared limiter store, on a
 * database of its own without users.
 */
beforeAll(async () => {
  await ensureBuild();
  receiver = await startReceiver();
  // The purge lists the store's uploads: a Blob API of the test's own.
  blob = await startFakeBlobApi({ lean: true });
  app = await startAppServer(
    process.env.DATABASE_URL!,
    {
      VERCEL: '1',
      VERCEL_ENV: 'preview',
      APP_SECRET: 'a-preview-app-secret-of-32-characters-or-more',
      BLOB_READ_WRITE_TOKEN: BLOB_TOKEN,
      VERCEL_BLOB_API_URL: blob.url,
      VERCEL_BLOB_RETRIES: '0',
      REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
      CRON_SECRET,
      WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true',
    },
    { launcher: true },
  );
});

afterAll(async () => {
  await app?.stop();
  await receiver?.close();
  await blob?.close();
});

const CODE_LINE = /Setup code: (\S+) \(enter it at (\S+)\/setup to create the first workspace and its owner; it works until then\)/;

/** The code in the launcher's line, and in the setup.code lines logged as /setup is opened. */
function loggedCodes(): { printed: string | undefined; logged: string[] } {
  const printed = CODE_LINE.exec(app.output())?.[1];
  const logged = app
    .events()
    .filter((event) => event.event === 'setup.code')
    .map((event) => CODE_LINE.exec(String(event.message))![1]!);
  return { printed, logged };
}

/** The first owner's setup as the page sends it, from the client address `from`. */
async function setUp(from: string, setupCode: unknown): Promise<LoopbackResponse> {
  const answer = await requestFrom(from, `${app.baseUrl}/api/internal/setup.createOwner`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: app.baseUrl },
    body: JSON.stringify({
      setupCode,
      workspaceName: 'Acme',
      workspaceSlug: 'acme',
      name: 'Ada Lovelace',
      email: 'ada@acme.test',
      password: PASSWORD,
    }),
  });
  seen.push(answer.body, JSON.stringify(answer.headers));
  return answer;
}

const messageOf = (answer: LoopbackResponse) => (JSON.parse(answer.body) as { error: { message: string } }).error.message;

// The tests run in order on one server: setup stands, then the owner exists.
describe('npm start as a Vercel preview, before its first owner', () => {
  it('prints the setup code at start in a line that says to enter it at /setup, and logs it again when /setup is opened', async () => {
    const { printed } = loggedCodes();
    expect(printed).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){4}$/);
    expect(CODE_LINE.exec(app.output())![2]).toBe(app.baseUrl);

    const page = await requestFrom(loopbackAddress(), `${app.baseUrl}/setup`);
    seen.push(page.body);
    expect(page.status).toBe(200);
    expect(page.body).toContain('Setup code');
    await vi.waitFor(() => expect(loggedCodes().logged).toContain(printed), { timeout: PATIENCE_MS });
    expect(new Set(loggedCodes().logged)).toEqual(new Set([printed]));
  });

  it('refuses a setup without the code and with a wrong one, and neither creates anything', async () => {
    const from = loopbackAddress();
    const missing = await setUp(from, '');
    expect(missing.status).toBe(400);
    expect(messageOf(missing)).toContain('setupCode');
    const wrong = await setUp(from, 'AAAA-AAAA-AAAA-AAAA-AAAA');
    expect(wrong.status).toBe(403);
    expect(messageOf(wrong)).toBe(WRONG_SETUP_CODE);
    expect(await db().user.count()).toBe(0);
    expect(await db().workspace.count()).toBe(0);
  });

  it(`answers 429 with Retry-After to an address past ${MAX_SETUP_ATTEMPTS} attempts, even with the right code`, async () => {
    const from = loopbackAddress();
    for (let i = 0; i < MAX_SETUP_ATTEMPTS; i++) expect((await setUp(from, `WRONG-${i}`)).status).toBe(403);
    const limited = await setUp(from, loggedCodes().printed);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(await db().user.count()).toBe(0);
  });

  it('answers what a careless or hostile client sends to setup with a 4xx, and creates nothing', async () => {
    // fetch, not a connection of its own: under Node 26, a call answered without its body read
    // never ends for a client that sent `Connection: close` (the one requestFrom sends).
    const post = async (path: string, body: string, headers: Record<string, string> = {}) => {
      const answer = await fetch(`${app.baseUrl}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: app.baseUrl, ...headers },
        body,
      });
      seen.push(await answer.text());
      return answer.status;
    };
    const statuses = [
      await post('/api/internal/setup.createOwner', '{bad'),
      await post('/api/internal/setup.createOwner', JSON.stringify({ setupCode: 12345 })),
      await post('/api/internal/setup.createOwner', JSON.stringify({ setupCode: ['a'], email: {} })),
      await post('/api/internal/setup.createOwner', JSON.stringify({ setupCode: 'x'.repeat(70_000) })),
      await post('/api/internal/setup.createOwner', 'null'),
      await post('/api/internal/setup.createOwner?batch=1', JSON.stringify({ 0: { setupCode: 'AAAA' } })),
      await post('/api/internal/SETUP.createOwner', '{}'),
      await post('/api/internal/setup.createOwner', '{}', { 'x-forwarded-for': '10.0.0.1', origin: 'https://evil.example' }),
      (await requestFrom(loopbackAddress(), `${app.baseUrl}/api/internal/setup.createOwner`)).status,
    ];
    for (const status of statuses) expect(status, String(statuses)).toBeGreaterThanOrEqual(400);
    for (const status of statuses) expect(status, String(statuses)).toBeLessThan(500);
    expect(await db().user.count()).toBe(0);
    expect((await requestFrom(loopbackAddress(), `${app.baseUrl}/setup`)).status).toBe(200);
  });

  it('keeps the code out of the database in clear', async () => {
    const code = loggedCodes().printed!;
    const tables = await db().$queryRaw<{ name: string }[]>`
      SELECT quote_ident(table_schema) || '.' || quote_ident(table_name) AS name FROM information_schema.tables
      WHERE table_schema NOT IN ('pg_catalog', 'information_schema') AND table_type = 'BASE TABLE'`;
    for (const { name } of tables) {
      const rows = await db().$queryRawUnsafe<{ row: string }[]>(`SELECT t::text AS row FROM ${name} t`);
      const text = rows.map((each) => each.row).join('\n');
      expect(text, name).not.toContain(code);
      expect(text, name).not.toContain(code.replaceAll('-', ''));
    }
  });

  it('sets up with the code once; a second setup with the same code is refused', async () => {
    const code = loggedCodes().printed!;
    const first = await setUp(loopbackAddress(), code);
    expect(first.status).toBe(200);
    const second = await setUp(loopbackAddress(), code);
    expect(second.status).toBe(403);
    expect(messageOf(second)).toBe(SETUP_DONE);
    expect(await db().user.count()).toBe(1);
    expect(await db().setupCode.count()).toBe(0);
    expect((await requestFrom(loopbackAddress(), `${app.baseUrl}/setup`)).status).toBe(404);
  });

  it('never put the code in an answer or a page', () => {
    const code = loggedCodes().printed!;
    expect(seen.length).toBeGreaterThan(MAX_SETUP_ATTEMPTS);
    for (const text of seen) {
      expect(text).not.toContain(code);
      expect(text).not.toContain(code.replaceAll('-', ''));
    }
  });
});

describe('webhooks on the preview', () => {
  it('holds the delivery to an endpoint copied from production, with why, and signs the one to an endpoint created on the preview', async () => {
    const workspace = await db().workspace.findUniqueOrThrow({ where: { slug: 'acme' } });
    await createProject(db(), { workspaceId: workspace.id, slug: 'web', name: 'Web', keyPrefix: 'WEB' });
    const { key } = await createApiKey(
      db(),
      workspace.id,
      { name: 'Preview', scopes: ['task:read', 'task:create', 'webhook:manage'], projectId: null, expiresAt: null },
      null,
      FIXTURE_AUDIT,
    );
    // Made by production: this process has no VERCEL_ENV, as a database copied from production holds them.
    const copied = await createEndpoint(
      db(),
      workspace.id,
      { url: receiver.url('production'), events: ['task.created'], projectId: null },
      FIXTURE_AUDIT,
    );
    const { cookie } = await signIn(app.baseUrl, 'ada@acme.test', PASSWORD, app.baseUrl);
    const settings = settingsClient(app.baseUrl, { cookie, origin: app.baseUrl });
    const created = await settings.mutate('webhooks.create', {
      workspace: 'acme',
      url: receiver.url('preview'),
      events: ['task.created'],
      projectId: null,
    });
    expect(created.status).toBe(200);

    const task = await apiClient(app.baseUrl, key).post('/web/tasks', { title: 'Made on the preview' });
    expect(task.status).toBe(201);

    await vi.waitFor(() => expect(receiver.received('preview')).toHaveLength(1), { timeout: PATIENCE_MS });
    const [request] = receiver.received('preview');
    expect(new Webhook(created.data.secret).verify(request!.body, request!.headers)).toMatchObject({ type: 'task.created' });

    const held = await vi.waitFor(
      async () => {
        const [delivery] = await db().webhookDelivery.findMany({ where: { endpointId: copied.id } });
        expect(delivery?.status).toBe('held');
        return delivery!;
      },
      { timeout: PATIENCE_MS },
    );
    expect(held).toMatchObject({ attempts: 0, responseCode: null });
    expect(held.lastError).toContain('Held by this preview deployment: the endpoint was created on a production deployment');
    expect(receiver.received('production')).toEqual([]);

    // What the API answers (held is one of the document's statuses), and the settings page shows.
    const listed = (await apiClient(app.baseUrl, key).get(`/webhooks/endpoints/${copied.id}/deliveries`)) as Answer<DeliveryList>;
    expect(listed.status).toBe(200);
    expect(listed.body.deliveries).toMatchObject([{ status: 'held', lastError: held.lastError }]);
    const deliveries = await settings.query('webhooks.deliveries', { workspace: 'acme', id: copied.id });
    expect(deliveries.data).toMatchObject([{ status: 'held', lastError: held.lastError }]);
    const endpoints = await settings.query('webhooks.list', { workspace: 'acme' });
    expect(endpoints.data.map(({ url, heldHere }) => ({ url, held: heldHere !== null }))).toEqual(
      expect.arrayContaining([
        { url: receiver.url('production'), held: true },
        { url: receiver.url('preview'), held: false },
      ]),
    );
    expect(receiver.received('production')).toEqual([]);
  });
});

describe('the scheduled routes, as Schedules and Cron Jobs call them', () => {
  const call = (path: string, authorization?: string) =>
    fetch(`${app.baseUrl}${path}`, {
      headers: { 'user-agent': 'vercel-cron/1.0', ...(authorization && { authorization }) },
    });

  it.for(['/api/cron/webhooks', '/api/cron/purge'])(
    '%s answers a GET with the bearer CRON_SECRET and refuses one without it',
    async (path) => {
      expect((await call(path)).status).toBe(401);
      expect((await call(path, 'Bearer not-the-secret')).status).toBe(401);
      const answer = await call(path, `Bearer ${CRON_SECRET}`);
      expect(answer.status).toBe(200);
      expect(await answer.json()).toEqual({ ok: true });
    },
  );
});
