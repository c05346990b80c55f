import { afterAll, beforeAll, expect, it } from 'vitest';
import { db } from '../../server/db/client';
import { standingSetupCode } from '../../server/setup/setup-code';
import { startTestServer, type TestServer } from '../support/http';
import { settingsClient } from '../support/settings';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
  setupCode = (await standingSetupCode(db()))!.code;
});
afterAll(() => server.close());

const PASSWORD = 'correct horse battery staple';
let setupCode: string;
const owner = (n: number) => ({
  setupCode,
  workspaceName: `Acme ${n}`,
  workspaceSlug: `acme-${n}`,
  name: `Owner ${n}`,
  email: `owner${n}@acme.test`,
  password: PASSWORD,
});

// A fresh database of its own: no user yet, so the first setup is open.
it('the first owner set up is one workspace.owner_set_up event by that owner, with the request id; the refused second none', async () => {
  const first = await settingsClient(server.baseUrl).mutate('setup.createOwner', owner(1));
  expect(first.status).toBe(200);
  const user = await db().user.findUniqueOrThrow({ where: { email: 'owner1@acme.test' } });
  const workspace = await db().workspace.findUniqueOrThrow({ where: { slug: 'acme-1' } });
  const events = await db().auditEvent.findMany();
  expect(events).toHaveLength(1);
  expect(events[0]).toMatchObject({
    workspaceId: workspace.id,
    action: 'workspace.owner_set_up',
    actorType: 'person',
    actorId: user.id,
    actorName: 'Owner 1',
    targetType: 'workspace',
    targetId: workspace.id,
    targetName: 'Acme 1',
    requestId: first.requestId,
  });
  expect(first.requestId).toMatch(/^[0-9a-f-]{36}$/);

  const second = await settingsClient(server.baseUrl).mutate('setup.createOwner', owner(2));
  expect(second.status).toBe(403);
  expect(await db().auditEvent.count()).toBe(1);
  const stored = JSON.stringify(await db().$queryRaw`SELECT * FROM audit_event`);
  expect(stored).not.toContain(PASSWORD);
  expect(stored).not.toContain(setupCode);
});
