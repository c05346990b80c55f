import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkspaceFixture } from '../support/fixtures';
import { loopbackAddress, requestFrom } from '../support/loopback-client';
import { ensureBuild } from '../support/build';
import { startAppServer, type AppServer } from '../e2e/app-server';

// Bodies that come a byte at a time, sent to the server users run (`npm start`).
let app: AppServer;
let key: string;
let host: string;

beforeAll(async () => {
  await ensureBuild();
  key = await (await createWorkspaceFixture()).key();
  app = await startAppServer(process.env.DATABASE_URL!);
  host = new URL(app.baseUrl).host;
});

afterAll(async () => {
  await app?.stop();
});

/**
 * Opens a request whose head announces `length` bytes of body, then sends only its
 * first byte; resolves with the server's answer once it has come whole.
 */
function slowBody(head: string, length: number, opened: net.Socket[]): Promise<string> {
  const { hostname, port } = new URL(app.baseUrl);
  const socket = net.connect({ host: hostname, port: Number(port), localAddress: loopbackAddress() });
  opened.push(socket);
  socket.write(`${head}Host: ${host}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n{`);
  let answer = '';
  return new Promise((resolve) => {
    socket.on('data', (chunk: Buffer) => {
      answer += chunk.toString('latin1');
      const bodyAt = answer.indexOf('\r\n\r\n') + 4;
      const length = /\r\ncontent-length: (\d+)/i.exec(answer);
      if (bodyAt > 3 && length && answer.length - bodyAt >= Number(length[1])) resolve(answer);
    });
    socket.on('close', () => resolve(answer));
    socket.on('error', () => resolve(answer));
  });
}

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function createTask(title: string) {
  return requestFrom(loopbackAddress(), `${app.baseUrl}/v1/public/web/tasks`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify({ title }),
  });
}

// The deadline's test waits 30 s: the others run meanwhile, each with slow bodies of its own.
describe.concurrent('bodies that arrive slowly', () => {
  const opened: net.Socket[] = [];
  afterAll(() => opened.forEach((socket) => socket.destroy()));

  it('a valid key sending 14 MB MCP bodies a byte at a time holds nothing that other bodies need', async () => {
    const head = `POST /v1/mcp HTTP/1.1\r\nAuthorization: Bearer ${key}\r\nAccept: application/json, text/event-stream\r\n`;
    for (let i = 0; i < 4; i++) void slowBody(head, 14_000_000, opened);
    await settle(500);

    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => createTask(`Beside a slow body ${i}`)));

    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(201));
  });

  it('slow posts to the settings API without a session hold nothing that sign-in needs', async () => {
    for (let i = 0; i < 200; i++) void slowBody(`POST /api/internal/keys.create HTTP/1.1\r\nOrigin: ${app.baseUrl}\r\n`, 65_536, opened);
    await settle(500);

    const signIn = await requestFrom(loopbackAddress(), `${app.baseUrl}/api/auth/sign-in/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: app.baseUrl },
      body: JSON.stringify({ email: 'nobody@acme.test', password: 'not the password' }),
    });

    expect(signIn.status).toBe(401);
  });

  it('a body not received within 30 s answers 408 in the error shape', async () => {
    const started = Date.now();

    const answer = await slowBody(`POST /v1/public/web/tasks HTTP/1.1\r\nAuthorization: Bearer ${key}\r\n`, 1_000, opened);

    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toEqual({
      statusCode: 408,
      message: 'Request body not received in time: a body must arrive within 30 s, a file upload within 120 s',
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(29_000);
  });
});
