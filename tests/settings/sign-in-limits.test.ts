import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../server/db/client';
import { createWorkspaceFixture, type WorkspaceFixture } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/http';
import { loopbackAddress, requestFrom } from '../support/loopback-client';
import { appOrigin, createPerson, signIn } from '../support/settings';

let server: TestServer;
let fx: WorkspaceFixture;

beforeAll(async () => {
  server = await startTestServer();
  fx = await createWorkspaceFixture();
});
afterAll(() => server.close());

/** `count` sign-ins of `email` with a wrong password, each from an address of its own: only the per-account limit applies. */
async function failedSignIns(email: string, count: number): Promise<number[]> {
  const statuses = [];
  for (let i = 0; i < count; i++) statuses.push((await signIn(server.baseUrl, email, 'not the password')).status);
  return statuses;
}

// Each on a connection of its own: a refused body is not read, and its connection is not reused.
const postJson = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  requestFrom(loopbackAddress(), `${server.baseUrl}/api/auth/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: appOrigin(), ...headers },
    body: JSON.stringify(body),
  });

/**
 * A sign-in as it reaches the test server through one trusted proxy: the proxy appended
 * the address it saw (`client`); whatever stands further left, the client wrote itself.
 */
const signInThroughProxy = (email: string, password: string, client: string, written: string) =>
  requestFrom(loopbackAddress(), `${server.baseUrl}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: appOrigin(), 'x-forwarded-for': `${written}, ${client}` },
    body: JSON.stringify({ email, password }),
  });

describe('sign-in: limits per client address', () => {
  it('takes the address from the edge, so a client-written X-Forwarded-For cannot pick a fresh one per attempt', async () => {
    const person = await createPerson(fx.workspace.id, 'member');
    const statuses = [];
    for (let i = 1; i <= 4; i++) {
      const response = await signInThroughProxy(person.email, 'not the password', '198.51.100.4', `203.0.113.${i}`);
      statuses.push(response.status);
      if (response.status === 429) {
        expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
        expect(JSON.parse(response.body).message).toMatch(/^Too many requests from this address\. Try again in \d+ seconds\.$/);
      }
    }
    expect(statuses).toEqual([401, 401, 401, 429]);
  });

  it('records in the session the address the public API sees, not one the client wrote', async () => {
    const person = await createPerson(fx.workspace.id, 'member');
    const response = await signInThroughProxy(person.email, person.password, '198.51.100.5', '203.0.113.77');
    expect(response.status).toBe(200);
    const session = await db().session.findFirstOrThrow({ where: { userId: person.id } });
    expect(session.ipAddress).toBe('198.51.100.5');
  });

  it('keeps the count in the database, where every process and instance sees it', async () => {
    const person = await createPerson(fx.workspace.id, 'member');
    const from = loopbackAddress();
    // As another instance would have left it: this address's three sign-ins of the last ten seconds.
    await db().rateLimit.create({ data: { id: 'elsewhere', key: `${from}|/sign-in/email`, count: 3, lastRequest: BigInt(Date.now()) } });
    const { status } = await signIn(server.baseUrl, person.email, person.password, appOrigin(), from);
    expect(status).toBe(429);
  });
});

describe('sign-in: limits per account', () => {
  it('refuses an account after 10 failed sign-ins in 15 minutes, even with the right password, saying when to try again', async () => {
    const person = await createPerson(fx.workspace.id, 'member');
    expect(await failedSignIns(person.email, 10)).toEqual(Array(10).fill(401));
    const refused = await signIn(server.baseUrl, person.email, person.password);
    expect(refused.status).toBe(429);
    expect(refused.cookie).toBe('');
    expect(Number(refused.retryAfter)).toBeGreaterThan(14 * 60);
    expect(Number(refused.retryAfter)).toBeLessThanOrEqual(15 * 60);
    expect(refused.body?.message).toMatch(/^Too many failed sign-ins for this account\. Try again in 15 minutes \(after \d{4}-\d\d-\d\dT/);
  });

  it('lets no more than 10 parallel guesses through', async () => {
    const person = await createPerson(fx.workspace.id, 'member');
    const statuses = await Promise.all(Array.from({ length: 15 }, () => signIn(server.baseUrl, person.email, 'not the password')));
    const tried = statuses.filter((result) => result.status === 401).length;
    expect(tried).toBeLessThanOrEqual(10);
    expect(tried + statuses.filter((result) => result.status === 429).length).toBe(15);
    await failedSignIns(person.email, 10 - tried);
    expect((await signIn(server.baseUrl, person.email, person.password)).status).toBe(429);
  });

  it('counts per account: another account signs in meanwhile', async () => {
    const [locked, other] = await Promise.all([createPerson(fx.workspace.id, 'member'), createPerson(fx.workspace.id, 'member')]);
    await failedSignIns(locked.email, 11);
    expect((await signIn(server.baseUrl, other.email, other.password)).status).toBe(200);
  });

  it('answers an email nobody has exactly as an existing account, so the limit tells nothing about who exists', async () => {
    const person = await createPerson(fx.workspace.id, 'member');
    const existing = await failedSignIns(person.email, 11);
    const unknown = await failedSignIns(`nobody-${person.email}`, 11);
    expect(unknown).toEqual(existing);
    expect(unknown).toEqual([...Array(10).fill(401), 429]);
  });

  it('forgets the failures after a successful sign-in', async () => {
    const person = await createPerson(fx.workspace.id, 'member');
    await failedSignIns(person.email, 9);
    expect((await signIn(server.baseUrl, person.email, person.password)).status).toBe(200);
    await failedSignIns(person.email, 9);
    expect((await signIn(server.baseUrl, person.email, person.password)).status).toBe(200);
  });

  it('keeps the lock in the database: without its rows, the account signs in again', async () => {
    const person = await createPerson(fx.workspace.id, 'member');
    await failedSignIns(person.email, 10);
    expect((await signIn(server.baseUrl, person.email, person.password)).status).toBe(429);
    await db().signInFailure.deleteMany({});
    expect((await signIn(server.baseUrl, person.email, person.password)).status).toBe(200);
  });
});

describe('sign-in: what the endpoints show and allow', () => {
  it('answers sign-in without the session token in the body: it travels in the HttpOnly cookie only', async () => {
    const person = await createPerson(fx.workspace.id, 'member');
    const { status, body, cookie } = await signIn(server.baseUrl, person.email, person.password);
    expect(status).toBe(200);
    expect(body?.user).toMatchObject({ email: person.email });
    expect(body).not.toHaveProperty('token');
    const token = decodeURIComponent(cookie.split('session_token=')[1]!.split(';')[0]!).split('.')[0]!;
    expect(JSON.stringify(body)).not.toContain(token);
  });

  it('answers get-session without the session token', async () => {
    const person = await createPerson(fx.workspace.id, 'member');
    const { cookie } = await signIn(server.baseUrl, person.email, person.password);
    const response = await fetch(`${server.baseUrl}/api/auth/get-session`, { headers: { cookie } });
    const body = (await response.json()) as { user: { email: string }; session: { userId: string } };
    expect(body.user).toMatchObject({ email: person.email });
    expect(body.session).toMatchObject({ userId: person.id });
    expect(body.session).not.toHaveProperty('token');
    const { token } = await db().session.findFirstOrThrow({ where: { userId: person.id } });
    expect(JSON.stringify(body)).not.toContain(token);
  });

  it('answers 404 to update-user and leaves the profile as it was', async () => {
    const person = await createPerson(fx.workspace.id, 'member');
    const { cookie } = await signIn(server.baseUrl, person.email, person.password);
    const response = await postJson('update-user', { name: 'x'.repeat(1_000), image: 'javascript:alert(1)' }, { cookie });
    expect(response.status).toBe(404);
    const user = await db().user.findUniqueOrThrow({ where: { id: person.id } });
    expect(user).toMatchObject({ name: person.name, image: null });
  });

  it('answers 413 to an update-user body over the 8 KiB sign-in routes take, and leaves the profile as it was', async () => {
    const person = await createPerson(fx.workspace.id, 'member');
    const { cookie } = await signIn(server.baseUrl, person.email, person.password);
    const response = await postJson('update-user', { name: 'x'.repeat(200_000) }, { cookie });
    expect(response.status).toBe(413);
    const user = await db().user.findUniqueOrThrow({ where: { id: person.id } });
    expect(user).toMatchObject({ name: person.name, image: null });
  });

  it.each(['list-sessions', 'change-email', 'change-password', 'revoke-sessions', 'delete-user', 'sign-up/email', 'ok'])(
    'answers 404 to %s, which the pages do not use',
    async (path) => {
      const person = await createPerson(fx.workspace.id, 'member');
      const { cookie } = await signIn(server.baseUrl, person.email, person.password);
      expect((await postJson(path, {}, { cookie })).status).toBe(404);
      expect((await requestFrom(loopbackAddress(), `${server.baseUrl}/api/auth/${path}`, { headers: { cookie } })).status).toBe(404);
    },
  );
});
