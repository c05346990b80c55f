import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../server/db/client';
import { seedDemo, type DemoLogins } from '../../server/seed/demo';
import { startTestServer, type TestServer } from '../support/http';
import { appOrigin, signIn, signOut } from '../support/settings';

// A Vercel preview is mostly opened at its branch alias, not at the deployment URL APP_URL falls back to.
process.env.VERCEL_BRANCH_URL = 'task-api-git-fix-team.vercel.app';
const BRANCH_ORIGIN = 'https://task-api-git-fix-team.vercel.app';

let server: TestServer;
let demo: DemoLogins;

beforeAll(async () => {
  server = await startTestServer();
  demo = await seedDemo(db());
});
afterAll(() => server.close());

describe('sign-in', () => {
  it("signs in the demo seed's admin with the printed password", async () => {
    const { status, cookie } = await signIn(server.baseUrl, demo.adminEmail, demo.adminPassword);
    expect(status).toBe(200);
    expect(cookie).toMatch(/better-auth\.session_token=/);
  });

  it('sets an HttpOnly, SameSite=Lax session cookie, not Secure on localhost', async () => {
    const { setCookies } = await signIn(server.baseUrl, demo.adminEmail, demo.adminPassword);
    const session = setCookies.find((cookie) => cookie.includes('session_token='))!;
    expect(session).toMatch(/;\s*HttpOnly/i);
    expect(session).toMatch(/;\s*SameSite=Lax/i);
    expect(session).not.toMatch(/;\s*Secure/i);
  });

  it('keeps sessions in PostgreSQL', async () => {
    const before = await db().session.count();
    await signIn(server.baseUrl, demo.adminEmail, demo.adminPassword);
    expect(await db().session.count()).toBe(before + 1);
  });

  it('ends the session on sign-out', async () => {
    const { cookie } = await signIn(server.baseUrl, demo.adminEmail, demo.adminPassword);
    expect(await signOut(server.baseUrl, cookie)).toBe(200);
    const session = await fetch(`${server.baseUrl}/api/auth/get-session`, { headers: { cookie } });
    expect(await session.json()).toBeNull();
  });

  it("signs in and out on a preview's branch alias (VERCEL_BRANCH_URL)", async () => {
    const { status, cookie } = await signIn(server.baseUrl, demo.adminEmail, demo.adminPassword, BRANCH_ORIGIN);
    expect(status).toBe(200);
    expect(await signOut(server.baseUrl, cookie, BRANCH_ORIGIN)).toBe(200);
    const session = await fetch(`${server.baseUrl}/api/auth/get-session`, { headers: { cookie } });
    expect(await session.json()).toBeNull();
  });

  it('refuses a wrong password with 401 and no cookie', async () => {
    const { status, cookie } = await signIn(server.baseUrl, demo.adminEmail, 'not-the-password');
    expect(status).toBe(401);
    expect(cookie).toBe('');
  });

  it('does not let anyone sign up', async () => {
    const response = await fetch(`${server.baseUrl}/api/auth/sign-up/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: appOrigin() },
      body: JSON.stringify({ email: 'intruder@evil.test', password: 'long enough password', name: 'Intruder' }),
    });
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(await db().user.findUnique({ where: { email: 'intruder@evil.test' } })).toBeNull();
  });

  it('refuses a sign-in posted from another site', async () => {
    const response = await fetch(`${server.baseUrl}/api/auth/sign-in/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'https://evil.example' },
      body: JSON.stringify({ email: demo.adminEmail, password: demo.adminPassword }),
    });
    expect(response.status).toBe(403);
  });
});
