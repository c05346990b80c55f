import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createWorkspaceFixture, type WorkspaceFixture } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/http';
import { rawRequest } from '../support/raw-http';
import { appOrigin, createPerson, settingsClient, signIn, type SettingsError } from '../support/settings';

let server: TestServer;
let fx: WorkspaceFixture;
let member: string;
let owner: string;

beforeAll(async () => {
  server = await startTestServer();
  fx = await createWorkspaceFixture();
  const [m, o] = await Promise.all([createPerson(fx.workspace.id, 'member'), createPerson(fx.workspace.id, 'owner')]);
  member = (await signIn(server.baseUrl, m.email, m.password)).cookie;
  owner = (await signIn(server.baseUrl, o.email, o.password)).cookie;
});
afterAll(() => server.close());

async function raw(path: string, init: RequestInit = {}) {
  const response = await fetch(`${server.baseUrl}/api/internal/${path}`, init);
  const body = (await response.json()) as { error: SettingsError };
  return { status: response.status, error: body.error };
}

describe('settings API: errors carry the matching status and tRPC code', () => {
  it('answers a query input that is not JSON with 400 PARSE_ERROR, and logs nothing', async () => {
    const logged = vi.spyOn(process.stderr, 'write');
    const { status, error } = await raw('keys.list?input=%7Bnot', { headers: { cookie: owner } });
    expect(status).toBe(400);
    expect(error).toMatchObject({ message: 'Input is not valid JSON', data: { code: 'PARSE_ERROR', httpStatus: 400 } });
    expect(logged).not.toHaveBeenCalled();
    logged.mockRestore();
  });

  it('answers a body that is not JSON with 400 PARSE_ERROR, and logs nothing', async () => {
    const logged = vi.spyOn(process.stderr, 'write');
    const { status, error } = await raw('keys.create', {
      method: 'POST',
      headers: { cookie: owner, origin: appOrigin(), 'content-type': 'application/json' },
      body: '{bad',
    });
    expect(status).toBe(400);
    expect(error).toMatchObject({ message: 'Input is not valid JSON', data: { code: 'PARSE_ERROR', httpStatus: 400 } });
    expect(logged).not.toHaveBeenCalled();
    logged.mockRestore();
  });

  it('answers an invalid field with 400 BAD_REQUEST', async () => {
    const { status, error } = await settingsClient(server.baseUrl, { cookie: owner }).query('keys.list', { workspace: 7 });
    expect(status).toBe(400);
    expect(error.data).toMatchObject({ code: 'BAD_REQUEST', httpStatus: 400 });
  });

  it('answers a signed-out caller with 401 UNAUTHORIZED', async () => {
    const { status, error } = await settingsClient(server.baseUrl).query('keys.list', { workspace: fx.workspace.slug });
    expect(status).toBe(401);
    expect(error.data).toMatchObject({ code: 'UNAUTHORIZED', httpStatus: 401 });
  });

  it('answers a member with 403 FORBIDDEN', async () => {
    const { status, error } = await settingsClient(server.baseUrl, { cookie: member }).query('keys.list', { workspace: fx.workspace.slug });
    expect(status).toBe(403);
    expect(error.data).toMatchObject({ code: 'FORBIDDEN', httpStatus: 403 });
  });

  it('answers a cross-site mutation with 403 FORBIDDEN', async () => {
    const { status, error } = await settingsClient(server.baseUrl, { cookie: owner, origin: 'https://evil.example' }).mutate(
      'keys.revoke',
      {
        workspace: fx.workspace.slug,
        id: 'x',
      },
    );
    expect(status).toBe(403);
    expect(error.data).toMatchObject({ code: 'FORBIDDEN', httpStatus: 403 });
  });

  it('answers a workspace the caller is not in with 404 NOT_FOUND', async () => {
    const { status, error } = await settingsClient(server.baseUrl, { cookie: owner }).query('keys.list', { workspace: 'nowhere' });
    expect(status).toBe(404);
    expect(error.data).toMatchObject({ code: 'NOT_FOUND', httpStatus: 404 });
  });

  it('answers an unknown procedure with 404 NOT_FOUND', async () => {
    const { status, error } = await raw('keys.nothing', { headers: { cookie: owner } });
    expect(status).toBe(404);
    expect(error.data).toMatchObject({ code: 'NOT_FOUND', httpStatus: 404 });
  });
});

describe('settings API: no work for a caller without a session', () => {
  // The head announces a body the client never sends: a server that read it first would wait out its deadline.
  const unsentBody = (path: string, headers: string) =>
    rawRequest(
      server.baseUrl,
      `POST /api/internal/${path} HTTP/1.1\r\nHost: ${new URL(server.baseUrl).host}\r\n${headers}Content-Type: application/json\r\nContent-Length: 60000\r\n\r\n{`,
    );

  it('answers a signed-out mutation 401 from its head, without waiting for its body', async () => {
    const response = await unsentBody('keys.create', `Origin: ${appOrigin()}\r\n`);
    expect(response.status).toBe(401);
    expect(JSON.parse(response.body).error).toMatchObject({
      message: 'Sign in to continue',
      data: { code: 'UNAUTHORIZED', httpStatus: 401 },
    });
  });

  it('answers a signed-out cross-site mutation 403 from its head, as with a session', async () => {
    const response = await unsentBody('keys.create', 'Origin: https://evil.example\r\n');
    expect(response.status).toBe(403);
    expect(JSON.parse(response.body).error.data).toMatchObject({ code: 'FORBIDDEN', httpStatus: 403 });
  });

  it('answers each call of a signed-out batch 401 from its head', async () => {
    const response = await unsentBody('keys.create,keys.revoke?batch=1', `Origin: ${appOrigin()}\r\n`);
    expect(response.status).toBe(401);
    expect(JSON.parse(response.body).map((answer: { error: SettingsError }) => answer.error.data.code)).toEqual([
      'UNAUTHORIZED',
      'UNAUTHORIZED',
    ]);
  });
});
