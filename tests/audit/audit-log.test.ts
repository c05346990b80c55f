import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settleRejectedKeys } from '../../server/audit/rejected-key';
import { db } from '../../server/db/client';
import { hashKey } from '../../server/keys/key-format';
import { purgeStorage } from '../../server/retention/purge';
import type { AuditEvent } from '../../server/schemas/audit';
import { useApi } from '../support/api';
import { runAdminInProcess } from '../support/cli';
import { errorOf } from '../support/client';
import { createWorkspaceFixture } from '../support/fixtures';
import { authorize, pkce, registerClient } from '../support/oauth';
import { createPerson, settingsClient, signIn } from '../support/settings';

process.env.WEBHOOK_ALLOW_PRIVATE_ADDRESSES = 'true';

const api = useApi();
/** Every secret the file uses: none may appear in the log, a webhook body or an answer. */
const secrets = new Set<string>();
/** Every answer of the new surfaces the file reads, for the same check. */
const answers: string[] = [];

let owner: Awaited<ReturnType<typeof createPerson>> & { cookie: string };
let auditKey: string;
const endpointUrl = (path: string) => `http://127.0.0.1:9/${path}?token=receiver-own-token`;

async function signedIn(role: 'owner' | 'admin' | 'member', workspaceId = api.fixture.workspace.id) {
  const person = await createPerson(workspaceId, role);
  secrets.add(person.password);
  const { cookie } = await signIn(api.server.baseUrl, person.email, person.password);
  keepCookie(cookie);
  return { ...person, cookie };
}

/** The values of a Cookie header: the session tokens. */
function keepCookie(cookie: string) {
  for (const pair of cookie.split('; ')) {
    const value = pair.slice(pair.indexOf('=') + 1);
    if (value.length >= 16) secrets.add(value);
  }
}

const settings = () => settingsClient(api.server.baseUrl, { cookie: owner.cookie });
const workspace = () => api.fixture.workspace.slug;

async function listed(query: Record<string, string> = {}, key = auditKey) {
  const answer = await api.clientWith(key).get(`/audit-events?${new URLSearchParams({ limit: '100', ...query })}`);
  answers.push(answer.text);
  return answer;
}

/** The events of one action on one target: exactly those a test caused. */
async function eventsOf(action: string, targetId: string): Promise<AuditEvent[]> {
  const answer = await listed({ action, targetId });
  expect(answer.status).toBe(200);
  return (answer.body as { events: AuditEvent[] }).events;
}

async function onlyEvent(action: string, targetId: string): Promise<AuditEvent> {
  const events = await eventsOf(action, targetId);
  expect(events).toHaveLength(1);
  return events[0]!;
}

const byOwner = () => ({ type: 'person', id: owner.id, name: owner.name });

beforeAll(async () => {
  owner = await signedIn('owner');
  auditKey = await api.fixture.key({ name: 'SIEM export', scopes: ['audit:read'] });
  secrets.add(auditKey);
  secrets.add(api.key);
});

describe('every action yields exactly one event with its actor, target and request id', () => {
  it('api_key.created and api_key.revoked from the settings page; revoking again records nothing', async () => {
    const created = await settings().mutate('keys.create', {
      workspace: workspace(),
      name: 'Nightly export',
      scopes: ['task:read'],
      projectId: null,
      expiry: { kind: 'never' },
    });
    expect(created.status).toBe(200);
    secrets.add(created.data.secret);
    const event = await onlyEvent('api_key.created', created.data.key.id);
    expect(event).toMatchObject({
      actor: byOwner(),
      target: { type: 'api_key', id: created.data.key.id, name: 'Nightly export' },
      requestId: created.requestId,
      ip: expect.any(String),
      changes: { name: { before: null, after: 'Nightly export' }, scopes: { before: null, after: ['task:read'] } },
    });
    expect(event.requestId).toMatch(/^[0-9a-f-]{36}$/);

    const revoked = await settings().mutate('keys.revoke', { workspace: workspace(), id: created.data.key.id });
    expect(revoked.status).toBe(200);
    expect(await onlyEvent('api_key.revoked', created.data.key.id)).toMatchObject({ actor: byOwner(), requestId: revoked.requestId });
    await settings().mutate('keys.revoke', { workspace: workspace(), id: created.data.key.id });
    expect(await eventsOf('api_key.revoked', created.data.key.id)).toHaveLength(1);
  });

  it('a refused change records nothing: a key for a project of another workspace, a 21st-like bad endpoint', async () => {
    const before = (await listed()).body as { events: AuditEvent[] };
    const refusedKey = await settings().mutate('keys.create', {
      workspace: workspace(),
      name: 'Nope',
      scopes: ['task:read'],
      projectId: randomUUID(),
      expiry: { kind: 'never' },
    });
    expect(refusedKey.status).toBe(404);
    const refusedHook = await settings().mutate('webhooks.create', {
      workspace: workspace(),
      url: endpointUrl('refused'),
      events: ['audit.event'],
      projectId: api.fixture.projects.web.id,
    });
    expect(refusedHook.status).toBe(400);
    expect(refusedHook.error.message).toBe("events: audit.event is the whole workspace's; choose it on an endpoint for every project");
    const after = (await listed()).body as { events: AuditEvent[] };
    expect(after.events[0]?.id).toBe(before.events[0]?.id);
  });

  it('webhook endpoints: created, updated, secret rotated, disabled, enabled, delivery resent, deleted', async () => {
    const created = await settings().mutate('webhooks.create', {
      workspace: workspace(),
      url: endpointUrl('hooks'),
      events: ['task.created'],
      projectId: null,
    });
    expect(created.status).toBe(200);
    secrets.add(created.data.secret);
    const id = created.data.endpoint.id;
    const target = { type: 'webhook_endpoint', id, name: 'http://127.0.0.1:9/hooks' };
    expect(await onlyEvent('webhook_endpoint.created', id)).toMatchObject({ actor: byOwner(), target, requestId: created.requestId });

    const updated = await settings().mutate('webhooks.update', {
      workspace: workspace(),
      id,
      url: endpointUrl('hooks'),
      events: ['task.created', 'task.deleted'],
      projectId: null,
    });
    expect(updated.status).toBe(200);
    expect(await onlyEvent('webhook_endpoint.updated', id)).toMatchObject({
      target,
      requestId: updated.requestId,
      changes: { events: { before: ['task.created'], after: ['task.created', 'task.deleted'] } },
    });

    const rotated = await settings().mutate('webhooks.rotate', { workspace: workspace(), id });
    secrets.add(rotated.data.secret);
    expect(await onlyEvent('webhook_endpoint.secret_rotated', id)).toMatchObject({ target, requestId: rotated.requestId });

    const disabled = await settings().mutate('webhooks.setEnabled', { workspace: workspace(), id, enabled: false });
    expect(await onlyEvent('webhook_endpoint.disabled', id)).toMatchObject({
      requestId: disabled.requestId,
      changes: { enabled: { before: true, after: false } },
    });
    // Refused while disabled: nothing recorded.
    const delivery = await db().webhookDelivery.create({
      data: { endpointId: id, messageId: `msg_${randomUUID()}`, eventType: 'task.created', payload: '{}', status: 'failed' },
    });
    const refused = await settings().mutate('webhooks.resend', { workspace: workspace(), id, deliveryId: delivery.id });
    expect(refused.status).toBe(409);

    const enabled = await settings().mutate('webhooks.setEnabled', { workspace: workspace(), id, enabled: true });
    expect(await onlyEvent('webhook_endpoint.enabled', id)).toMatchObject({ requestId: enabled.requestId });

    const resent = await settings().mutate('webhooks.resend', { workspace: workspace(), id, deliveryId: delivery.id });
    expect(resent.status).toBe(200);
    expect(await onlyEvent('webhook_delivery.resent', delivery.id)).toMatchObject({
      actor: byOwner(),
      target: { type: 'webhook_delivery', id: delivery.id },
      requestId: resent.requestId,
    });
    expect(await eventsOf('webhook_delivery.resent', delivery.id)).toHaveLength(1);

    const deleted = await settings().mutate('webhooks.delete', { workspace: workspace(), id });
    expect(await onlyEvent('webhook_endpoint.deleted', id)).toMatchObject({ target, requestId: deleted.requestId });
  });

  it('members from the CLI: added, role changed, password reset, removed; the actor is the CLI run', async () => {
    const email = `dana-${randomUUID()}@acme.test`;
    const password = `pw-${randomUUID()}`;
    const reset = `pw-${randomUUID()}`;
    secrets.add(password);
    secrets.add(reset);
    const slug = workspace();
    const added = await runAdminInProcess<{ id: string }>(
      ['member', 'add', '--workspace', slug, '--email', email, '--name', 'Dana', '--password-stdin', '--json'],
      password,
    );
    expect(added.code).toBe(0);
    const userId = added.json.id;
    const addedEvent = await onlyEvent('member.added', userId);
    expect(addedEvent).toMatchObject({ actor: { type: 'cli' }, target: { type: 'user', id: userId, name: 'Dana' }, ip: null });
    expect(addedEvent.requestId).toMatch(/^[0-9a-f-]{36}$/);

    expect((await runAdminInProcess(['member', 'role', '--workspace', slug, '--email', email, '--role', 'admin', '--json'])).code).toBe(0);
    expect(await onlyEvent('member.role_changed', userId)).toMatchObject({
      actor: { type: 'cli' },
      changes: { role: { before: 'member', after: 'admin' } },
    });
    // The same role again changes nothing.
    expect((await runAdminInProcess(['member', 'role', '--workspace', slug, '--email', email, '--role', 'admin'])).code).toBe(0);
    expect(await eventsOf('member.role_changed', userId)).toHaveLength(1);

    const resetRun = await runAdminInProcess(
      ['member', 'add', '--workspace', slug, '--email', email, '--name', 'Dana', '--password-stdin', '--reset-password', '--json'],
      reset,
    );
    expect(resetRun.code).toBe(0);
    await onlyEvent('member.password_reset', userId);
    expect(await eventsOf('member.added', userId)).toHaveLength(1);

    expect((await runAdminInProcess(['member', 'remove', '--workspace', slug, '--email', email])).code).toBe(0);
    expect(await onlyEvent('member.removed', userId)).toMatchObject({ changes: { role: { before: 'admin', after: null } } });
  });

  it('sign-ins: succeeded, failed, and locked out once when the tenth failure locks the account', async () => {
    const person = await createPerson(api.fixture.workspace.id, 'member');
    secrets.add(person.password);
    const ok = await signIn(api.server.baseUrl, person.email, person.password);
    expect(ok.status).toBe(200);
    keepCookie(ok.cookie);
    expect(await onlyEvent('sign_in.succeeded', person.id)).toMatchObject({
      actor: { type: 'person', id: person.id, name: person.name },
      target: { type: 'user', id: person.id },
      requestId: ok.requestId,
    });

    const wrong = `wrong-${randomUUID()}`;
    secrets.add(wrong);
    const failed = await signIn(api.server.baseUrl, person.email, wrong);
    expect(failed.status).toBe(401);
    expect(await onlyEvent('sign_in.failed', person.id)).toMatchObject({ requestId: failed.requestId });

    for (let attempt = 2; attempt <= 10; attempt++) await signIn(api.server.baseUrl, person.email, wrong);
    const locked = await signIn(api.server.baseUrl, person.email, wrong);
    expect(locked.status).toBe(429);
    expect(await eventsOf('sign_in.failed', person.id)).toHaveLength(10);
    expect(await eventsOf('sign_in.locked_out', person.id)).toHaveLength(1);
  });

  it('oauth_app.connected on consent and oauth_app.revoked on the page', async () => {
    const client = await registerClient(api.server.baseUrl, {}, { 'x-forwarded-for': '2001:db8:aa::1' });
    const asked = await authorize(api.server.baseUrl, {
      clientId: client.body.client_id,
      cookie: owner.cookie,
      challenge: pkce().challenge,
      scope: 'task:read audit:read offline_access',
    });
    const oauthQuery = new URL(asked.location!, api.server.baseUrl).search.slice(1);
    const approved = await settings().mutate('apps.approve', {
      workspace: workspace(),
      oauthQuery,
      scopes: ['task:read', 'audit:read'],
      projectId: null,
    });
    expect(approved.status).toBe(200);
    secrets.add(new URL(approved.data.redirectTo).searchParams.get('code')!);
    const [grant] = (await settings().query('apps.list', { workspace: workspace() })).data.filter(
      (app) => app.clientId === client.body.client_id,
    );
    expect(await onlyEvent('oauth_app.connected', grant!.id)).toMatchObject({
      actor: byOwner(),
      target: { type: 'oauth_app', id: grant!.id, name: 'Agent Desk' },
      requestId: approved.requestId,
      changes: { scopes: { before: null, after: ['task:read', 'audit:read'] } },
    });

    const revoked = await settings().mutate('apps.revoke', { workspace: workspace(), id: grant!.id });
    expect(await onlyEvent('oauth_app.revoked', grant!.id)).toMatchObject({ requestId: revoked.requestId });
  });

  it('an approval the library then refuses (its signed query altered) leaves no grant and no event', async () => {
    const siem = await settings().mutate('webhooks.create', {
      workspace: workspace(),
      url: endpointUrl('refused-consent'),
      events: ['audit.event'],
      projectId: null,
    });
    secrets.add(siem.data.secret);
    const streamed = () => db().webhookDelivery.count({ where: { endpointId: siem.data.endpoint.id } });
    const streamedBefore = await streamed();
    const client = await registerClient(api.server.baseUrl, {}, { 'x-forwarded-for': '2001:db8:bb::1' });
    const asked = await authorize(api.server.baseUrl, {
      clientId: client.body.client_id,
      cookie: owner.cookie,
      challenge: pkce().challenge,
    });
    const query = new URL(asked.location!, api.server.baseUrl).searchParams;
    query.set('state', 'altered');
    const connected = () => db().auditEvent.count({ where: { workspaceId: api.fixture.workspace.id, action: 'oauth_app.connected' } });
    const before = await connected();
    const refused = await settings().mutate('apps.approve', {
      workspace: workspace(),
      oauthQuery: query.toString(),
      scopes: ['task:read'],
      projectId: null,
    });
    expect(refused.status).toBe(400);
    expect(await connected()).toBe(before);
    expect(await db().oauthGrant.count({ where: { clientId: client.body.client_id } })).toBe(0);
    // The event's delivery, not yet sent, went with it.
    expect(await streamed()).toBe(streamedBefore);
    await settings().mutate('webhooks.delete', { workspace: workspace(), id: siem.data.endpoint.id });
  });

  it('api_key.rejected: a revoked or an expired key presented again, at most once an hour per key', async () => {
    const revokedKey = await api.fixture.key({ name: 'Old laptop' });
    const expiredKey = await api.fixture.key({ name: 'Expired bot', expiresAt: new Date(Date.now() + 60_000) });
    secrets.add(revokedKey);
    secrets.add(expiredKey);
    const idOf = async (key: string) => (await db().apiKey.findUniqueOrThrow({ where: { keyHash: hashKey(key) } })).id;
    const revokedId = await idOf(revokedKey);
    const expiredId = await idOf(expiredKey);
    await db().apiKey.update({ where: { id: revokedId }, data: { revokedAt: new Date() } });
    await db().apiKey.update({ where: { id: expiredId }, data: { expiresAt: new Date(Date.now() - 1000) } });

    const first = await api.clientWith(revokedKey).get('/web/tasks', { 'user-agent': 'old-script/1.0' });
    expect(first.status).toBe(401);
    await settleRejectedKeys();
    for (let again = 0; again < 3; again++) expect((await api.clientWith(revokedKey).get('/web/tasks')).status).toBe(401);
    expect((await api.clientWith(expiredKey).get('/web/statuses')).status).toBe(401);
    await settleRejectedKeys();

    expect(await onlyEvent('api_key.rejected', revokedId)).toMatchObject({
      actor: { type: 'api_key', id: revokedId, name: 'Old laptop' },
      target: { type: 'api_key', id: revokedId, name: 'Old laptop' },
      userAgent: 'old-script/1.0',
      requestId: first.headers.get('x-request-id'),
    });
    await onlyEvent('api_key.rejected', expiredId);
  });
});

describe('reading the log', () => {
  it('filters by action group, actor, target and time, newest first, and pages with the cursor', async () => {
    const group = (await listed({ action: 'webhook_endpoint' })).body as { events: AuditEvent[] };
    expect(group.events.length).toBeGreaterThanOrEqual(6);
    expect(group.events.every((event) => event.action.startsWith('webhook_endpoint.'))).toBe(true);
    const times = group.events.map((event) => event.occurredAt);
    expect([...times].sort().reverse()).toEqual(times);

    const mine = (await listed({ actorType: 'person', actorId: owner.id })).body as { events: AuditEvent[] };
    expect(mine.events.length).toBeGreaterThan(0);
    expect(mine.events.every((event) => event.actor.id === owner.id)).toBe(true);

    const future = (await listed({ since: new Date(Date.now() + 60_000).toISOString() })).body as { events: AuditEvent[] };
    expect(future.events).toEqual([]);
    const past = (await listed({ until: '2020-01-01T00:00:00Z' })).body as { events: AuditEvent[] };
    expect(past.events).toEqual([]);

    const seen: string[] = [];
    let after: string | null = null;
    do {
      const answer = await listed({ limit: '3', ...(after ? { after } : {}) });
      const body = answer.body as { events: AuditEvent[]; meta: { hasMore: boolean; nextCursor: string | null } };
      seen.push(...body.events.map((event) => event.id));
      after = body.meta.hasMore ? body.meta.nextCursor : null;
    } while (after);
    const all = (await listed()).body as { events: AuditEvent[] };
    expect(seen).toEqual(all.events.map((event) => event.id));
  });

  it('bad filters answer 400 naming the field', async () => {
    const answer = await listed({ action: 'api_keys' });
    expect(answer.status).toBe(400);
    expect(errorOf(answer).message).toMatch(/^action: must be an action such as api_key\.created or a group/);
    expect(errorOf(await listed({ actorType: 'robot' })).message).toBe('actorType: must be one of person, api_key, oauth_app, cli, system');
  });

  it('exports NDJSON and CSV, streamed, the same events as the list', async () => {
    const all = ((await listed()).body as { events: AuditEvent[] }).events;
    const ndjson = await fetch(`${api.server.baseUrl}/v1/public/audit-events/export?format=ndjson`, {
      headers: { authorization: `Bearer ${auditKey}` },
    });
    expect(ndjson.status).toBe(200);
    expect(ndjson.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
    const text = await ndjson.text();
    answers.push(text);
    const lines = text
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as AuditEvent);
    expect(lines.map((event) => event.id)).toEqual(all.map((event) => event.id));
    expect(lines[0]).toEqual(all[0]);

    const csv = await fetch(`${api.server.baseUrl}/v1/public/audit-events/export?format=csv&action=api_key`, {
      headers: { authorization: `Bearer ${auditKey}` },
    });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const rows = (await csv.text()).trimEnd().split('\r\n');
    answers.push(rows.join('\n'));
    expect(rows[0]).toBe('id,occurredAt,action,actorType,actorId,actorName,targetType,targetId,targetName,ip,userAgent,requestId,changes');
    expect(rows.length - 1).toBe(all.filter((event) => event.action.startsWith('api_key.')).length);
  });

  it('each event is streamed as audit.event to workspace endpoints that chose it, with the body the API answers', async () => {
    const created = await settings().mutate('webhooks.create', {
      workspace: workspace(),
      url: endpointUrl('siem'),
      events: ['audit.event'],
      projectId: null,
    });
    secrets.add(created.data.secret);
    const key = await settings().mutate('keys.create', {
      workspace: workspace(),
      name: 'Streamed',
      scopes: ['task:read'],
      projectId: null,
      expiry: { kind: 'never' },
    });
    secrets.add(key.data.secret);
    const event = await onlyEvent('api_key.created', key.data.key.id);
    const [delivery] = await db().webhookDelivery.findMany({
      where: { endpointId: created.data.endpoint.id, eventType: 'audit.event' },
      orderBy: { createdAt: 'desc' },
      take: 1,
    });
    const body = JSON.parse(delivery!.payload) as { type: string; data: { workspace: { slug: string }; event: AuditEvent } };
    expect(body.type).toBe('audit.event');
    expect(body.data.workspace.slug).toBe(workspace());
    expect(body.data.event).toEqual(event);
    answers.push(...(await db().webhookDelivery.findMany({ where: { eventType: 'audit.event' } })).map((d) => d.payload));
  });

  it('endpoints that chose no type, or other types, get no audit.event: their bodies keep their shapes', async () => {
    const every = await settings().mutate('webhooks.create', {
      workspace: workspace(),
      url: endpointUrl('all'),
      events: [],
      projectId: null,
    });
    secrets.add(every.data.secret);
    const revoked = await settings().mutate('keys.create', {
      workspace: workspace(),
      name: 'Unstreamed',
      scopes: ['task:read'],
      projectId: null,
      expiry: { kind: 'never' },
    });
    secrets.add(revoked.data.secret);
    await onlyEvent('api_key.created', revoked.data.key.id);
    expect(await db().webhookDelivery.count({ where: { endpointId: every.data.endpoint.id } })).toBe(0);
  });
});

describe('who may read it', () => {
  it('a key without audit:read gets 403, as does a key limited to one project', async () => {
    const without = await listed({}, api.key);
    expect(without.status).toBe(403);
    expect(errorOf(without).message).toBe('Missing required scope: audit:read');
    const narrow = await api.fixture.key({ scopes: ['audit:read'], projectId: api.fixture.projects.web.id });
    secrets.add(narrow);
    const limited = await listed({}, narrow);
    expect(limited.status).toBe(403);
    expect(errorOf(limited).message).toBe(
      "API key is limited to one project; the workspace's audit log, request log, usage and webhooks need a key for every project",
    );
  });

  it("another workspace's key reads only its own workspace's log", async () => {
    const other = await createWorkspaceFixture();
    const otherKey = await other.key({ scopes: ['audit:read'] });
    secrets.add(otherKey);
    const answer = await listed({}, otherKey);
    expect(answer.status).toBe(200);
    const ids = new Set((await listed()).body.events.map((event: AuditEvent) => event.id));
    expect((answer.body as { events: AuditEvent[] }).events.some((event) => ids.has(event.id))).toBe(false);
  });

  it('the settings page: members are refused (403), owners of other workspaces find no workspace (404) and no event', async () => {
    const member = await signedIn('member');
    const refused = await settingsClient(api.server.baseUrl, { cookie: member.cookie }).query('audit.list', { workspace: workspace() });
    expect(refused.status).toBe(403);
    expect(refused.error.message).toBe('Only owners and admins of this workspace read its audit log');

    const elsewhere = await createWorkspaceFixture();
    const stranger = await signedIn('owner', elsewhere.workspace.id);
    const client = settingsClient(api.server.baseUrl, { cookie: stranger.cookie });
    expect((await client.query('audit.list', { workspace: workspace() })).status).toBe(404);
    const someEvent = ((await listed()).body as { events: AuditEvent[] }).events[0]!;
    expect((await client.query('audit.get', { workspace: elsewhere.workspace.slug, id: someEvent.id })).status).toBe(404);

    const admin = await signedIn('admin');
    const read = await settingsClient(api.server.baseUrl, { cookie: admin.cookie }).query('audit.get', {
      workspace: workspace(),
      id: someEvent.id,
    });
    expect(read.status).toBe(200);
    expect(read.data).toEqual(someEvent);
  });

  it('the CLI lists newest first as exactly one JSON object', async () => {
    const run = await runAdminInProcess<{ workspace: string; events: Record<string, unknown>[] }>([
      'audit',
      'list',
      '--workspace',
      workspace(),
      '--action',
      'api_key',
      '--limit',
      '5',
      '--json',
    ]);
    expect(run.code).toBe(0);
    answers.push(run.stdout);
    expect(run.json.workspace).toBe(workspace());
    expect(run.json.events.length).toBeGreaterThan(0);
    expect(run.json.events.length).toBeLessThanOrEqual(5);
    expect(Object.keys(run.json.events[0]!)).toEqual(['id', 'occurredAt', 'action', 'actor', 'target', 'ip', 'userAgent', 'requestId']);
    expect(run.json.events.every((event) => String(event.action).startsWith('api_key.'))).toBe(true);
  });
});

describe('retention', () => {
  it('the purge drops events older than 400 days and keeps newer ones', async () => {
    const old = randomUUID();
    const recent = randomUUID();
    const row = (id: string, daysAgo: number) => ({
      id,
      workspaceId: api.fixture.workspace.id,
      occurredAt: new Date(Date.now() - daysAgo * 86_400_000),
      action: 'member.added',
      actionGroup: 'member',
      actorType: 'system',
      targetType: 'user',
    });
    await db().auditEvent.createMany({ data: [row(old, 401), row(recent, 399)] });
    const report = await purgeStorage(db());
    expect(report.auditEvents).toBeGreaterThanOrEqual(1);
    expect(await db().auditEvent.count({ where: { id: old } })).toBe(0);
    expect(await db().auditEvent.count({ where: { id: recent } })).toBe(1);
  });
});

describe('no secret is ever kept', () => {
  afterAll(() => settleRejectedKeys());

  it('a dump of the audit table, the audit webhook bodies and every answer read holds none of the secrets used', async () => {
    const dump = JSON.stringify(await db().$queryRaw`SELECT * FROM audit_event`);
    const bodies = (await db().webhookDelivery.findMany({ where: { eventType: 'audit.event' } })).map((d) => d.payload).join('\n');
    const everything = [dump, bodies, ...answers].join('\n');
    expect(secrets.size).toBeGreaterThan(15);
    for (const secret of secrets) {
      expect(secret.length).toBeGreaterThan(8);
      expect(everything.includes(secret), `a secret of ${secret.length} characters appears`).toBe(false);
    }
    expect(everything).not.toMatch(/tk_[0-9a-f]{40}|whsec_|Bearer /);
    expect(everything).not.toContain('receiver-own-token');
  });
});
