import { afterAll, beforeAll, expect, it } from 'vitest';
import { db } from '../../server/db/client';
import { setupCodeLine, standingSetupCode } from '../../server/setup/setup-code';
import { startTestServer, type TestServer } from '../support/http';
import { settingsClient } from '../support/settings';

// The operator's own code, as Grafana's GF_SECURITY_ADMIN_PASSWORD or GitLab's GITLAB_ROOT_PASSWORD.
const TOKEN = 'chosen-by-the-operator-0123456789';
process.env.SETUP_TOKEN = TOKEN;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const owner = (setupCode: string) => ({
  setupCode,
  workspaceName: 'Acme',
  workspaceSlug: 'acme',
  name: 'Ada',
  email: 'ada@acme.test',
  password: 'correct horse battery',
});

it('with SETUP_TOKEN set, setup takes that value exactly, makes no code of its own and never logs the value', async () => {
  const standing = await standingSetupCode(db());
  expect(standing).toEqual({ code: TOKEN, fromEnv: true });
  expect(setupCodeLine(standing!, 'https://tasks.example')).toBe(
    'Setup code: the value of SETUP_TOKEN (enter it at https://tasks.example/setup to create the first workspace and its owner; it works until then)',
  );
  expect(await db().setupCode.count()).toBe(0);

  const client = settingsClient(server.baseUrl);
  for (const typed of [TOKEN.toUpperCase(), `${TOKEN}x`, TOKEN.slice(1)]) {
    expect((await client.mutate('setup.createOwner', owner(typed))).status).toBe(403);
  }
  expect(await db().user.count()).toBe(0);
  expect((await client.mutate('setup.createOwner', owner(` ${TOKEN} `))).status).toBe(200);
  expect(await standingSetupCode(db())).toBeNull();
});
