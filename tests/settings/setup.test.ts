import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sealText } from '../../server/app-secret';
import { db } from '../../server/db/client';
import { MAX_SETUP_ATTEMPTS } from '../../server/setup/attempts';
import { SETUP_DONE, WRONG_SETUP_CODE } from '../../server/setup/first-owner';
import { standingSetupCode } from '../../server/setup/setup-code';
import { startTestServer, type TestServer } from '../support/http';
import { appOrigin, settingsClient, signIn } from '../support/settings';

let server: TestServer;
// The code the server logs when /setup is opened (server/setup/setup-code.ts), made by the same call.
let code: string;

// Asked for by several processes at once, as instances starting together do.
let codes: (string | undefined)[];

beforeAll(async () => {
  server = await startTestServer();
  codes = (await Promise.all(Array.from({ length: 5 }, () => standingSetupCode(db())))).map((standing) => standing?.code);
  code = codes[0]!;
});
afterAll(() => server.close());

const owner = (n: number, setupCode = code) => ({
  setupCode,
  workspaceName: `Acme ${n}`,
  workspaceSlug: `acme-${n}`,
  name: `Owner ${n}`,
  email: `owner${n}@acme.test`,
  password: 'correct horse battery',
});

/** A setup as the page sends it, from the client address `from` (the test server trusts one proxy). */
async function setupFrom(from: string, input: unknown) {
  const response = await fetch(`${server.baseUrl}/api/internal/setup.createOwner`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: appOrigin(), 'x-forwarded-for': from },
    body: JSON.stringify(input),
  });
  const body = (await response.json()) as { error?: { message: string } };
  return { status: response.status, retryAfter: response.headers.get('retry-after'), message: body.error?.message };
}

// The tests share one fresh database and run in order: no user, then one.
describe('first run setup', () => {
  it('makes one setup code per database, however many ask at once', async () => {
    expect(new Set(codes)).toEqual(new Set([code]));
    expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){4}$/);
    expect((await standingSetupCode(db()))!.code).toBe(code);
  });

  it('reports invalid fields under their names without creating anything', async () => {
    const answer = await settingsClient(server.baseUrl).mutate('setup.createOwner', {
      ...owner(0),
      workspaceSlug: 'Not A Slug',
      email: 'nope',
      password: 'short',
    });
    expect(answer.status).toBe(400);
    expect(Object.keys(answer.error.data.fieldErrors!).sort()).toEqual(['email', 'password', 'workspaceSlug']);
    expect(await db().user.count()).toBe(0);
  });

  it('refuses names holding U+0000 or a lone surrogate with 400 naming the fields, creating nothing', async () => {
    const answer = await settingsClient(server.baseUrl).mutate('setup.createOwner', {
      ...owner(0),
      workspaceName: 'Acme\u0000',
      name: 'Ada \udc00',
    });
    expect(answer.status).toBe(400);
    expect(answer.error.data.fieldErrors).toEqual({
      workspaceName: 'must not contain the character U+0000',
      name: 'must not contain a lone surrogate (U+D800 to U+DFFF without its pair)',
    });
    expect(await db().user.count()).toBe(0);
  });

  it('refuses a cross-site setup request', async () => {
    const answer = await settingsClient(server.baseUrl, { origin: 'https://evil.example' }).mutate('setup.createOwner', owner(0));
    expect(answer.status).toBe(403);
    expect(await db().user.count()).toBe(0);
  });

  it('refuses a setup without the setup code with 400 naming the field, creating nothing', async () => {
    const { setupCode: _, ...withoutCode } = owner(0);
    for (const input of [withoutCode, owner(0, ''), owner(0, '   ')]) {
      const answer = await settingsClient(server.baseUrl).mutate('setup.createOwner', input);
      expect(answer.status).toBe(400);
      expect(Object.keys(answer.error.data.fieldErrors!)).toEqual(['setupCode']);
    }
    expect(await db().user.count()).toBe(0);
  });

  it('refuses a wrong setup code with 403 saying where the right one is, creating nothing', async () => {
    const wrong = code.replace(/^./, (first) => (first === 'A' ? 'B' : 'A'));
    for (const setupCode of [wrong, 'x'.repeat(256), code.slice(0, -1)]) {
      const answer = await setupFrom('203.0.113.7', owner(0, setupCode));
      expect(answer).toMatchObject({ status: 403, message: WRONG_SETUP_CODE });
    }
    expect(await db().user.count()).toBe(0);
    expect(await db().workspace.count()).toBe(0);
  });

  it(`answers 429 with Retry-After after ${MAX_SETUP_ATTEMPTS} attempts from one address, counting an IPv6 /64 as one address`, async () => {
    const wrong = owner(0, 'ZZZZ-ZZZZ-ZZZZ-ZZZZ-ZZZZ');
    const statuses = [];
    for (let i = 0; i < MAX_SETUP_ATTEMPTS; i++) statuses.push((await setupFrom(`2001:db8:1:2::${i + 1}`, wrong)).status);
    expect(statuses).toEqual(Array(MAX_SETUP_ATTEMPTS).fill(403));
    const refused = await setupFrom('2001:db8:1:2:ffff::1', owner(0));
    expect(refused.status).toBe(429);
    expect(Number(refused.retryAfter)).toBeGreaterThan(14 * 60);
    expect(refused.message).toMatch(/^Too many attempts at the setup code from this address\. Try again in 1[45] minutes\.$/);
    // Another /64 has attempts of its own.
    expect((await setupFrom('2001:db8:1:3::1', wrong)).status).toBe(403);
    expect(await db().user.count()).toBe(0);
  });

  it('replaces a code sealed under another APP_SECRET, which no process can read, and refuses the old one', async () => {
    await db().setupCode.update({ where: { id: 1 }, data: { codeSealed: sealText('another-key', code) } });
    const replaced = (await standingSetupCode(db()))!.code;
    expect(replaced).not.toBe(code);
    expect((await setupFrom('203.0.113.8', owner(0, code))).status).toBe(403);
    code = replaced;
  });

  it('keeps the code sealed: no row holds it in clear', async () => {
    const dump = JSON.stringify(await db().$queryRaw`SELECT * FROM setup_code`);
    expect(dump).not.toContain(code);
    expect(dump).not.toContain(code.replaceAll('-', ''));
    expect(await db().setupCode.count()).toBe(1);
  });

  it('creates exactly one owner and workspace when two first runs race', async () => {
    const client = settingsClient(server.baseUrl);
    // Typed as read off a terminal: lower case, without the dashes.
    const typed = code.toLowerCase().replaceAll('-', '');
    const answers = await Promise.all([client.mutate('setup.createOwner', owner(1, typed)), client.mutate('setup.createOwner', owner(2))]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 403]);
    const winner = answers.find((answer) => answer.status === 200)!;
    const memberships = await db().membership.findMany({ include: { user: true, workspace: true } });
    expect(memberships).toHaveLength(1);
    expect(memberships[0]).toMatchObject({
      role: 'owner',
      user: { email: winner.data.owner.email },
      workspace: { slug: winner.data.workspace.slug },
    });
  });

  it('forgets the code and the attempts at it once the owner exists, and makes none again', async () => {
    expect(await db().setupCode.count()).toBe(0);
    expect(await db().setupAttempt.count()).toBe(0);
    expect(await standingSetupCode(db())).toBeNull();
    expect(await db().setupCode.count()).toBe(0);
  });

  it('lets the first owner sign in with the password chosen at setup', async () => {
    const [membership] = await db().membership.findMany({ include: { user: true } });
    const { status } = await signIn(server.baseUrl, membership!.user.email, 'correct horse battery');
    expect(status).toBe(200);
  });

  it('is gone once a user exists, with the code that worked too', async () => {
    const answer = await settingsClient(server.baseUrl).mutate('setup.createOwner', owner(3));
    expect(answer.status).toBe(403);
    expect(answer.error.message).toBe(SETUP_DONE);
  });
});
