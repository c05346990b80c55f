import { afterAll, describe, expect, it, vi } from 'vitest';
import { db } from '../../server/db/client';
import { useApi } from '../support/api';

// On Vercel (VERCEL set) records are written by a task Next runs after the answer; here the
// tasks are kept, and run when the test says, as the platform would once the answer has gone.
const afterAnswer: (() => Promise<unknown>)[] = [];
vi.mock('next/server', async (importOriginal) => ({
  ...(await importOriginal<typeof import('next/server')>()),
  after: (task: () => Promise<unknown>) => afterAnswer.push(task),
}));
vi.mock('../../server/env', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../server/env')>();
  return { ...actual, env: () => ({ ...actual.env(), requestLog: { ...actual.env().requestLog, flushAfterResponse: true } }) };
});
// The worker's next file shares this process (tests/support/fresh-modules.ts) and must not meet these mocks.
afterAll(() => {
  vi.doUnmock('next/server');
  vi.doUnmock('../../server/env');
});

const api = useApi();

const logged = async (requestId: string) =>
  (await db().$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM request_log.request WHERE request_id = ${requestId}::uuid`)[0]!.n;

describe('the request log on Vercel', () => {
  it('is written after the answer by the route files, with no timer', async () => {
    const { GET } = await import('../../app/v1/public/[...path]/route');
    const answer = await GET(new Request('http://localhost/v1/public/web/statuses', { headers: { authorization: `Bearer ${api.key}` } }));
    expect(answer.status).toBe(200);
    const requestId = answer.headers.get('x-request-id')!;
    expect(afterAnswer).toHaveLength(1);
    // No timer writes it meanwhile: only the task after the answer does.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(await logged(requestId)).toBe(0);
    await Promise.all(afterAnswer.map((task) => task()));
    expect(await logged(requestId)).toBe(1);
  });
});
