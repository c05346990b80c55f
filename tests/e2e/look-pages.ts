import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { db } from '../../server/db/client';
import type { Prisma } from '../../server/db/generated/client';
import { createGrant } from '../../server/oauth/grants';
import { addMember } from '../../server/workspaces/members';
import { createEndpoint } from '../../server/webhooks/endpoints';
import type { WorkspaceFixture } from '../support/fixtures';
import { pkce, registerClient } from '../support/oauth';
import { FIXTURE_AUDIT } from '../support/fixtures';
import { logRequests, type LoggedRequest } from '../support/request-records';

/** What every page of the look test is shown with: the app, and a workspace whose owner is signed in. */
export interface LookContext {
  baseUrl: string;
  fx: WorkspaceFixture;
}

/**
 * A page the look test checks and photographs at each width. A new page people sign
 * in to joins the test by being added to LOOK_PAGES; its screenshots are
 * `tests/e2e/screenshots/<name>-desktop.png` and `<name>-phone.png`.
 */
export interface LookPage {
  name: string;
  /** Once, before any width: the data the page should show (the workspace starts with none of it). */
  prepare(context: LookContext): Promise<void>;
  /** Opens the page in the signed-in browser and waits until it shows what the screenshot should. */
  open(page: Page, context: LookContext): Promise<void>;
  /** False for a page that shows no time at all (the consent page). */
  showsTimes?: false;
}

const ago = (ms: number) => new Date(Date.now() - ms);
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

export const WEBHOOK_URL = 'https://hooks.example.com/task-api/events';

const apiKeys: LookPage = {
  name: 'api-keys',
  async prepare({ fx }) {
    await fx.key({ name: 'Nightly export to the data warehouse', scopes: ['task:read'] });
    await fx.key({ name: 'CI deploy bot', projectId: fx.projects.web.id, expiresAt: new Date(Date.now() + 30 * DAY) });
    await fx.key({ name: 'Old import script' });
    await fx.key({ name: 'Laptop of a former contractor' });
    const keys = db().apiKey;
    const named = (name: string) => ({ workspaceId: fx.workspace.id, name });
    await keys.updateMany({ where: { workspaceId: fx.workspace.id }, data: { createdAt: ago(12 * DAY), lastUsedAt: ago(3 * MINUTE) } });
    await keys.updateMany({
      where: named('Old import script'),
      data: { createdAt: ago(120 * DAY), expiresAt: ago(2 * DAY), lastUsedAt: ago(5 * DAY) },
    });
    await keys.updateMany({
      where: named('Laptop of a former contractor'),
      data: { revokedAt: ago(DAY), lastUsedAt: ago(26 * 60 * MINUTE) },
    });
  },
  async open(page, { baseUrl, fx }) {
    await page.goto(`${baseUrl}/settings/api-keys?workspace=${fx.workspace.slug}`);
    await page.getByRole('row', { name: /CI deploy bot/ }).waitFor();
  },
};

const webhooks: LookPage = {
  name: 'webhooks',
  async prepare({ fx }) {
    const endpoint = await createEndpoint(
      db(),
      fx.workspace.id,
      {
        url: WEBHOOK_URL,
        events: ['task.created', 'task.updated'],
        projectId: null,
      },
      FIXTURE_AUDIT,
    );
    await db().webhookEndpoint.update({ where: { id: endpoint.id }, data: { createdAt: ago(9 * DAY) } });
    await db().webhookDelivery.createMany({
      data: [
        { status: 'delivered' as const, responseCode: 204, durationMs: 87, attempts: 1, createdAt: ago(2 * MINUTE) },
        { status: 'failed' as const, responseCode: 503, durationMs: 1204, attempts: 3, createdAt: ago(40 * MINUTE) },
        { status: 'delivered' as const, responseCode: 200, durationMs: 112, attempts: 2, createdAt: ago(26 * 60 * MINUTE) },
      ].map((delivery) => ({
        ...delivery,
        endpointId: endpoint.id,
        messageId: `msg_${randomUUID()}`,
        eventType: 'task.created',
        payload: '{}',
      })),
    });
  },
  async open(page, { baseUrl, fx }) {
    await page.goto(`${baseUrl}/settings/webhooks?workspace=${fx.workspace.slug}`);
    await page.getByRole('article', { name: WEBHOOK_URL }).getByRole('button', { name: 'Show deliveries' }).click();
    await page.getByRole('row', { name: /503/ }).waitFor();
  },
};

/** An app registered as an OAuth client, as an MCP client registers itself. */
async function oauthClient(name: string) {
  const clientId = `look-${randomUUID()}`;
  await db().oauthClient.create({
    data: { id: randomUUID(), clientId, name, redirectUris: ['http://127.0.0.1:43117/callback'], tokenEndpointAuthMethod: 'none' },
  });
  return clientId;
}

const connectedApps: LookPage = {
  name: 'apps',
  async prepare({ fx }) {
    const approver = await addMember(
      db(),
      {
        workspaceId: fx.workspace.id,
        email: `priya-${randomUUID()}@acme.test`,
        name: 'Priya Raman',
        role: 'admin',
        password: `pw-${randomUUID()}`,
      },
      FIXTURE_AUDIT,
    );
    const grant = async (appName: string, scopes: ('task:read' | 'task:create' | 'task:update')[], projectId: string | null) =>
      createGrant(
        db(),
        {
          workspaceId: fx.workspace.id,
          clientId: await oauthClient(appName),
          appName,
          scopes,
          projectId,
          approvedById: approver.id,
        },
        FIXTURE_AUDIT,
      );
    const claude = await grant('Claude', ['task:read', 'task:create', 'task:update'], null);
    const sync = await grant('Roadmap sync', ['task:read'], fx.projects.web.id);
    const old = await grant('Cursor', ['task:read', 'task:update'], null);
    const keys = db().apiKey;
    await keys.update({ where: { id: claude }, data: { createdAt: ago(6 * DAY), lastUsedAt: ago(2 * MINUTE) } });
    await keys.update({ where: { id: sync }, data: { createdAt: ago(30 * DAY), lastUsedAt: ago(5 * 60 * MINUTE) } });
    await keys.update({ where: { id: old }, data: { createdAt: ago(60 * DAY), lastUsedAt: ago(20 * DAY), revokedAt: ago(3 * DAY) } });
  },
  async open(page, { baseUrl, fx }) {
    await page.goto(`${baseUrl}/settings/apps?workspace=${fx.workspace.slug}`);
    await page.getByRole('row', { name: /Roadmap sync/ }).waitFor();
  },
};

const consent: LookPage = {
  name: 'consent',
  showsTimes: false,
  async prepare() {},
  async open(page, { baseUrl }) {
    // An MCP client's registration and authorization request, as Claude sends them; the browser follows to the consent page.
    const client = await registerClient(baseUrl, { client_name: 'Claude' });
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: client.body.client_id,
      redirect_uri: 'http://127.0.0.1:43117/callback',
      scope: 'task:read task:create',
      state: 'look',
      code_challenge: pkce().challenge,
      code_challenge_method: 'S256',
      resource: `${baseUrl}/v1/mcp`,
    });
    await page.goto(`${baseUrl}/api/auth/oauth2/authorize?${query}`);
    await page.getByRole('heading', { name: 'Connect Claude' }).waitFor();
  },
};

/** The audit log's events, as people, the CLI and a rejected key made them; the detail of one open. */
const auditLog: LookPage = {
  name: 'audit-log',
  async prepare({ fx }) {
    // What the other pages' fixtures recorded just now goes back a month, behind the events shown here.
    await db().auditEvent.updateMany({ where: { workspaceId: fx.workspace.id }, data: { occurredAt: ago(31 * DAY) } });
    const browser = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_6) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15';
    const priya = { actorType: 'person', actorId: randomUUID(), actorName: 'Priya Raman', ip: '203.0.113.7', userAgent: browser };
    const event = (minutes: number, fields: Omit<Prisma.AuditEventCreateManyInput, 'id' | 'workspaceId' | 'occurredAt' | 'requestId'>) => ({
      id: randomUUID(),
      workspaceId: fx.workspace.id,
      occurredAt: ago(minutes * MINUTE),
      requestId: randomUUID(),
      ...fields,
    });
    const keyId = randomUUID();
    const events = [
      event(2, {
        action: 'api_key.rejected',
        actionGroup: 'api_key',
        actorType: 'api_key',
        actorId: keyId,
        actorName: 'Laptop of a former contractor',
        targetType: 'api_key',
        targetId: keyId,
        targetName: 'Laptop of a former contractor',
        ip: '198.51.100.23',
        userAgent: 'python-requests/2.32.3',
      }),
      event(14, {
        ...priya,
        action: 'api_key.created',
        actionGroup: 'api_key',
        targetType: 'api_key',
        targetId: randomUUID(),
        targetName: 'Nightly export to the data warehouse',
        changes: {
          name: { before: null, after: 'Nightly export to the data warehouse' },
          scopes: { before: null, after: ['task:read'] },
          projectId: { before: null, after: null },
        },
      }),
      event(55, {
        ...priya,
        action: 'webhook_endpoint.updated',
        actionGroup: 'webhook_endpoint',
        targetType: 'webhook_endpoint',
        targetId: randomUUID(),
        targetName: WEBHOOK_URL,
        changes: { events: { before: ['task.created'], after: ['task.created', 'task.updated'] } },
      }),
      event(3 * 60, {
        action: 'member.role_changed',
        actionGroup: 'member',
        actorType: 'cli',
        actorName: 'deploy',
        targetType: 'user',
        targetId: fx.members.grace.id,
        targetName: 'Grace Hopper',
        changes: { role: { before: 'member', after: 'admin' } },
      }),
      event(26 * 60, {
        ...priya,
        action: 'oauth_app.connected',
        actionGroup: 'oauth_app',
        targetType: 'oauth_app',
        targetId: randomUUID(),
        targetName: 'Claude',
      }),
      event(2 * 24 * 60, {
        ...priya,
        action: 'sign_in.failed',
        actionGroup: 'sign_in',
        targetType: 'user',
        targetId: priya.actorId,
        targetName: 'Priya Raman',
      }),
    ];
    await db().auditEvent.createMany({ data: events });
    detailId = events[1]!.id;
  },
  async open(page, { baseUrl, fx }) {
    await page.goto(`${baseUrl}/settings/audit-log?workspace=${fx.workspace.slug}&event=${detailId}`);
    await page.getByRole('row', { name: /api_key\.rejected/ }).waitFor();
    await page.getByRole('heading', { name: 'Event', exact: true }).waitFor();
  },
};
let detailId = '';

/** A morning's requests of two keys and an app: reads, writes, a replay, refusals and an MCP tool call. */
const requests: LookPage = {
  name: 'requests',
  async prepare({ fx }) {
    // The keys the API keys page shows (prepared before this one).
    const idOf = async (name: string) =>
      (await db().apiKey.findFirstOrThrow({ where: { workspaceId: fx.workspace.id, name }, select: { id: true } })).id;
    const exporter = await idOf('Nightly export to the data warehouse');
    const bot = await idOf('CI deploy bot');
    const rows: [string, number, string, string, string, number, number, string | null, boolean, string | null][] = [
      [exporter, 2, 'GET', '/v1/public/{projectSlug}/tasks', '/v1/public/web/tasks', 200, 18, null, false, null],
      [bot, 4, 'POST', '/v1/public/{projectSlug}/tasks', '/v1/public/web/tasks', 201, 41, 'deploy-2291', false, null],
      [bot, 5, 'POST', '/v1/public/{projectSlug}/tasks', '/v1/public/web/tasks', 201, 6, 'deploy-2291', true, null],
      [
        bot,
        9,
        'PATCH',
        '/v1/public/{projectSlug}/tasks/{taskId}',
        '/v1/public/web/tasks/WEB-12',
        412,
        9,
        null,
        false,
        'Task was changed since you read it (ETag mismatch)',
      ],
      [
        exporter,
        14,
        'GET',
        '/v1/public/{projectSlug}/tasks/{taskId}',
        '/v1/public/web/tasks/WEB-404',
        404,
        4,
        null,
        false,
        'Task not found',
      ],
      [bot, 21, 'POST', 'tools/call create_task', '/v1/mcp', 400, 3, null, false, 'title: must be 1 to 500 characters'],
      [exporter, 33, 'GET', '/v1/public/{projectSlug}/tasks', '/v1/public/web/tasks', 429, 1, null, false, 'Too many requests'],
    ];
    await db().$queryRaw`SELECT request_log.create_days((now() - interval '1 day')::date, 3)`;
    for (const [principal, minutesAgo, method, route, path, status, durationMs, idempotencyKey, replayed, message] of rows) {
      await db().$executeRaw`
        INSERT INTO request_log.request (id, occurred_at, workspace_id, principal_id, principal_kind, method, route, path, status,
          duration_ms, request_id, idempotency_key, replayed, ip, user_agent, message)
        VALUES (${randomUUID()}::uuid, ${ago(minutesAgo * MINUTE)}, ${fx.workspace.id}::uuid, ${principal}::uuid, 'key', ${method}, ${route},
          ${path}, ${status}, ${durationMs}, ${randomUUID()}::uuid, ${idempotencyKey}, ${replayed}, '203.0.113.7', 'curl/8.5.0', ${message})`;
    }
  },
  async open(page, { baseUrl, fx }) {
    await page.goto(`${baseUrl}/settings/requests?workspace=${fx.workspace.slug}`);
    await page.getByRole('row', { name: /WEB-404/ }).waitFor();
  },
};

/** The same requests' errors, grouped: the Requests page's Errors view. */
const requestErrors: LookPage = {
  name: 'request-errors',
  async prepare() {},
  async open(page, { baseUrl, fx }) {
    await page.goto(`${baseUrl}/settings/requests?workspace=${fx.workspace.slug}&view=errors`);
    await page
      .getByRole('row', { name: /Task not found/ })
      .first()
      .waitFor();
  },
};

/** One of them opened by a click on its row: everything the log keeps of it. */
const requestDetail: LookPage = {
  name: 'request-detail',
  async prepare() {},
  async open(page, { baseUrl, fx }) {
    await page.goto(`${baseUrl}/settings/requests?workspace=${fx.workspace.slug}`);
    await page.getByRole('link', { name: /^Details of GET \/v1\/public\/web\/tasks\/WEB-404/ }).click();
    await page.getByRole('heading', { name: 'Request', exact: true }).waitFor();
    await page.waitForURL(/&request=/);
  },
};

const HOUR = 60 * MINUTE;

/** A day of traffic, hour by hour: a busy afternoon, a few refusals, one bad hour of 5xx. */
function dayOfRequests(perHour: (hour: number) => number, route: string, method = 'GET'): LoggedRequest[] {
  return Array.from({ length: 24 }, (_, hour) =>
    Array.from({ length: perHour(hour) }, (_, i): LoggedRequest => {
      const status = i % 23 === 5 ? 404 : i % 41 === 7 ? 422 : hour === 9 && i % 3 === 0 ? 503 : hour === 15 && i % 5 === 0 ? 429 : 200;
      return {
        occurredAt: ago((23 - hour) * HOUR + ((i * 7919) % 3600) * 1000 + 30_000),
        status,
        method,
        route,
        durationMs: 8 + ((i * 37) % 90) + (hour === 9 ? 400 : 0),
      };
    }),
  ).flat();
}

const usage: LookPage = {
  name: 'usage',
  showsTimes: false,
  async prepare({ fx }) {
    const principal = async (name: string) => (await db().apiKey.findFirstOrThrow({ where: { workspaceId: fx.workspace.id, name } })).id;
    const wave = (base: number, swing: number) => (hour: number) => Math.round(base + swing * (1 + Math.sin((hour - 6) / 3.8)));
    await logRequests(fx.workspace.id, { id: await principal('CI deploy bot'), kind: 'key' }, [
      ...dayOfRequests(wave(14, 12), '/v1/public/{projectSlug}/tasks'),
      ...dayOfRequests(wave(4, 4), '/v1/public/{projectSlug}/tasks', 'POST'),
    ]);
    await logRequests(fx.workspace.id, { id: await principal('Nightly export to the data warehouse'), kind: 'key' }, [
      ...dayOfRequests((hour) => (hour === 2 ? 60 : 1), '/v1/public/{projectSlug}/tasks/changes'),
    ]);
    await logRequests(fx.workspace.id, { id: await principal('Claude'), kind: 'app' }, [
      ...dayOfRequests(wave(3, 5), 'tools/call list_tasks', 'POST'),
      ...dayOfRequests(wave(1, 2), 'tools/call update_task', 'POST'),
    ]);
  },
  async open(page, { baseUrl, fx }) {
    await page.goto(`${baseUrl}/settings/usage?workspace=${fx.workspace.slug}&range=24h`);
    await page.getByRole('row', { name: /CI deploy bot/ }).waitFor();
  },
};

const apiKey: LookPage = {
  name: 'api-key',
  async prepare() {},
  async open(page, { baseUrl, fx }) {
    const key = await db().apiKey.findFirstOrThrow({ where: { workspaceId: fx.workspace.id, name: 'CI deploy bot' } });
    await page.goto(`${baseUrl}/settings/api-keys/${key.id}?workspace=${fx.workspace.slug}`);
    await page.getByRole('region', { name: 'Recent requests' }).getByRole('row').nth(1).waitFor();
  },
};

// Usage and a key's page show the requests of the keys and apps the pages before them made.
export const LOOK_PAGES: LookPage[] = [
  apiKeys,
  webhooks,
  connectedApps,
  consent,
  auditLog,
  requests,
  requestErrors,
  requestDetail,
  usage,
  apiKey,
];
