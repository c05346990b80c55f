import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { db } from '../../server/db/client';
import { createWorkspaceFixture } from '../support/fixtures';
import { createPerson, signIn } from '../support/settings';
import { loopbackAddress, requestFrom } from '../support/loopback-client';
import { ensureBuild } from '../support/build';
import { startAppServer, type AppServer } from '../e2e/app-server';
import { BURST_GROWTH_BYTES, timed, tooSlow, watchPeak } from './server-memory';

// Bodies sent many at once to the server users run (`npm start`, with its production heap cap).
let app: AppServer;
let key: string;
// A signed-in owner's session cookie: the settings API reads a body only for a session.
let session: string;

// 1 MiB of the JSON that costs most to parse: hundreds of thousands of empty objects.
const MANY_VALUES = Buffer.from(`{"a":[${Array(349_000).fill('{}').join(',')}]}`.padEnd(1024 * 1024, ' '));
const CONCURRENT = 50;
const TOOLS_LIST = '{"jsonrpc":"2.0","id":1,"method":"tools/list"}';
const PAGES_AND_DOCUMENTS = [
  '/',
  '/sign-in',
  '/setup',
  '/docs',
  '/settings/api-keys',
  '/settings/webhooks',
  '/settings/apps',
  '/oauth/consent',
  '/oauth/error',
  '/.well-known/oauth-authorization-server',
  '/.well-known/oauth-protected-resource',
  '/v1/public/openapi.json',
];

beforeAll(async () => {
  await ensureBuild();
  const fx = await createWorkspaceFixture();
  key = await fx.key();
  const owner = await createPerson(fx.workspace.id, 'owner');
  app = await startAppServer(process.env.DATABASE_URL!);
  session = (await signIn(app.baseUrl, owner.email, owner.password, app.baseUrl)).cookie;
  // Each route's code is loaded on its first request: that is the server's size, not the burst's.
  // A server that has run a while has served them all, so the bursts are measured on top of that.
  await post('/v1/public/web/tasks', { authorization: `Bearer ${key}` }, Buffer.from('{"title":"Warm-up"}'));
  await post('/api/auth/sign-in/email', { origin: app.baseUrl }, Buffer.from('{}'));
  await post('/api/internal/keys.create', { origin: app.baseUrl, cookie: session }, Buffer.from('{}'));
  await post('/v1/mcp', { authorization: `Bearer ${key}`, accept: 'application/json, text/event-stream' }, Buffer.from(TOOLS_LIST));
  for (const path of PAGES_AND_DOCUMENTS) await (await fetch(`${app.baseUrl}${path}`, { redirect: 'manual' })).arrayBuffer();
});

// The supervisor runs one server process here: its memory is the one measured.
const server = () => app.workers()[0]!;

// How far the server's resident memory rose at its peak since the last watch began.
let growth: () => number;

beforeEach(() => {
  growth = watchPeak(server());
});

afterAll(async () => {
  await app?.stop();
});

const post = (path: string, headers: Record<string, string>, body: Buffer | ReadableStream<Uint8Array>) =>
  fetch(`${app.baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
    duplex: 'half',
  } as RequestInit).then(async (response) => ({ status: response.status, body: await response.json() }));

/** `megabytes` of spaces, sent in chunks as they are asked for. */
function streamOf(megabytes: number): ReadableStream<Uint8Array> {
  const chunk = new Uint8Array(64 * 1024).fill(0x20);
  let left = (megabytes * 1024 * 1024) / chunk.length;
  return new ReadableStream({
    pull(controller) {
      if (left-- > 0) controller.enqueue(chunk);
      else controller.close();
    },
  });
}

/** The statuses of CONCURRENT posts to `path` at once, each streaming 20 MB; redirects are not followed. */
function streamedPosts(path: string, headers: Record<string, string>): Promise<number[]> {
  const init = (): RequestInit => ({
    method: 'POST',
    headers: { origin: app.baseUrl, ...headers },
    body: streamOf(20),
    redirect: 'manual',
  });
  return Promise.all(
    Array.from({ length: CONCURRENT }, async () => {
      const response = await fetch(`${app.baseUrl}${path}`, { ...init(), duplex: 'half' } as RequestInit);
      await response.arrayBuffer();
      return response.status;
    }),
  );
}

async function stillServes(): Promise<number> {
  return (await fetch(`${app.baseUrl}/v1/public/web/statuses`, { headers: { authorization: `Bearer ${key}` } })).status;
}

describe('many large bodies at once', () => {
  it(`${CONCURRENT} without a key and ${CONCURRENT} with one: each gets its answer, the server stays up within its memory`, async () => {
    // The bad keys come from one client address of their own: past the bad-key limit its 401s turn into 429s.
    const address = loopbackAddress();
    const headers = (key: string) => ({ authorization: `Bearer ${key}`, 'content-type': 'application/json' });
    const answers = await Promise.all([
      ...Array.from({ length: CONCURRENT }, () =>
        requestFrom(address, `${app.baseUrl}/v1/public/web/tasks`, {
          method: 'POST',
          headers: headers(`tk_${randomBytes(20).toString('hex')}`),
          body: MANY_VALUES,
        }),
      ),
      ...Array.from({ length: CONCURRENT }, () =>
        requestFrom(loopbackAddress(), `${app.baseUrl}/v1/public/web/tasks`, {
          method: 'POST',
          headers: headers(key),
          body: MANY_VALUES,
        }).then((answer) => ({ ...answer, body: JSON.parse(answer.body) })),
      ),
    ]);

    // 30 a minute; a burst that straddles the turn of the limiter's minute may get one more, as the
    // sliding window rounds the previous minute's weighted count down (server/ratelimit/memory.ts).
    const refused = answers.slice(0, CONCURRENT).map((answer) => answer.status);
    const allowed = refused.filter((status) => status === 401).length;
    expect([30, 31]).toContain(allowed);
    expect(refused.sort()).toEqual([...Array(allowed).fill(401), ...Array(CONCURRENT - allowed).fill(429)]);
    expect(answers.slice(CONCURRENT).map((answer) => answer.body)).toEqual(
      Array(CONCURRENT).fill({ statusCode: 400, message: 'Request body holds more than 1000 JSON values' }),
    );
    expect(await stillServes()).toBe(200);
    expect(growth()).toBeLessThan(BURST_GROWTH_BYTES);
  });

  it(`${CONCURRENT} sign-ins streaming 20 MB each, without a length, answer 413 and the server stays up`, async () => {
    const answers = await Promise.all(
      Array.from({ length: CONCURRENT }, () => post('/api/auth/sign-in/email', { origin: app.baseUrl }, streamOf(20))),
    );

    expect(answers.map((answer) => answer.status)).toEqual(Array(CONCURRENT).fill(413));
    expect(await stillServes()).toBe(200);
    expect(growth()).toBeLessThan(BURST_GROWTH_BYTES);
  });

  it(`${CONCURRENT} settings calls of 20 MB each with a session answer 413 and the server stays up`, async () => {
    const huge = Buffer.alloc(20 * 1024 * 1024, ' ');
    const answers = await Promise.all(
      Array.from({ length: CONCURRENT }, () =>
        timed(() => post('/api/internal/keys.create', { origin: app.baseUrl, cookie: session }, huge)),
      ),
    );

    // Each call's session is looked up before its body is read: a call may pass the body deadline first.
    const inTime = answers.filter((answer) => !tooSlow(answer));
    expect(inTime.map((answer) => answer.status)).toEqual(Array(inTime.length).fill(413));
    expect(await stillServes()).toBe(200);
    expect(growth()).toBeLessThan(BURST_GROWTH_BYTES);
  });

  it(`${CONCURRENT} settings calls of 20 MB each without a session answer 401 unread and the server stays up`, async () => {
    const huge = Buffer.alloc(20 * 1024 * 1024, ' ');
    const answers = await Promise.all(
      Array.from({ length: CONCURRENT }, () => post('/api/internal/keys.create', { origin: app.baseUrl }, huge)),
    );

    expect(answers.map((answer) => answer.status)).toEqual(Array(CONCURRENT).fill(401));
    expect(await stillServes()).toBe(200);
    expect(growth()).toBeLessThan(BURST_GROWTH_BYTES);
  });

  it(`${CONCURRENT} page posts of 20 MB each as server actions answer a 4xx and the server stays up`, async () => {
    const answers = await streamedPosts('/sign-in', { 'next-action': 'f'.repeat(42), 'content-type': 'text/plain;charset=UTF-8' });

    expect(answers.every((status) => status >= 400 && status < 500)).toBe(true);
    expect(await stillServes()).toBe(200);
    expect(growth()).toBeLessThan(BURST_GROWTH_BYTES);
  });

  it.each(['/storage/0123456789abcdef', '/docs', '/settings/api-keys'])(
    `${CONCURRENT} posts of 20 MB each to %s are refused or sent elsewhere, and the server stays up`,
    async (path) => {
      const answers = await streamedPosts(path, {});

      // A page that needs a session redirects to sign-in; the others refuse the method.
      expect(answers.every((status) => status >= 300 && status < 500)).toBe(true);
      expect(await stillServes()).toBe(200);
      expect(growth()).toBeLessThan(BURST_GROWTH_BYTES);
    },
  );
});

describe('many large answers at once', () => {
  it(`${CONCURRENT} reads of a task's 1000 comments of 10,000 characters: each answered whole or with 503, the server up within its memory`, async () => {
    const created = await fetch(`${app.baseUrl}/v1/public/web/tasks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Much discussed' }),
    });
    const { id } = (await created.json()) as { id: string };
    await db().$executeRaw`
      INSERT INTO comment (id, task_id, content, author_name, created_at, updated_at)
      SELECT gen_random_uuid(), ${id}::uuid, repeat('x', 10000), 'CI bot', now(), now() FROM generate_series(1, 1000)`;
    growth = watchPeak(server());

    const answers = await Promise.all(
      Array.from({ length: CONCURRENT }, async () => {
        const response = await fetch(`${app.baseUrl}/v1/public/web/tasks/${id}/comments`, { headers: { authorization: `Bearer ${key}` } });
        const body = (await response.json()) as unknown[];
        return { status: response.status, comments: response.ok ? body.length : 0, retryAfter: response.headers.get('retry-after') };
      }),
    );

    for (const answer of answers)
      expect(answer.status === 200 ? answer.comments : answer).toEqual(
        answer.status === 200 ? 1000 : { status: 503, comments: 0, retryAfter: '5' },
      );
    expect(answers.some((answer) => answer.status === 200)).toBe(true);
    expect(await stillServes()).toBe(200);
    expect(growth()).toBeLessThan(BURST_GROWTH_BYTES);
  });
});
