import http from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import { workerPoolSize } from '../../server/launch/server-process';
import { ensureBuild } from '../support/build';
import { startAppServer } from '../e2e/app-server';
import { createWorkspaceFixture } from '../support/fixtures';
import { awayFromWindowEdge } from '../support/limit-window';
import { PATIENCE_MS } from '../support/patience';

let key: string;

beforeAll(async () => {
  await ensureBuild();
  key = await (await createWorkspaceFixture()).key();
});

/** A request on a connection of its own: the cluster hands each new connection to the next server process. */
function send(baseUrl: string, path: string, timeoutMs = PATIENCE_MS): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.request(`${baseUrl}${path}`, { agent: false, headers: { authorization: `Bearer ${key}` } });
    request.on('response', (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode!));
    });
    request.on('error', reject);
    request.setTimeout(timeoutMs, () => request.destroy(new Error('no answer')));
    request.end();
  });
}

/** npm start with `processes` server processes and the in-memory limiter at 10 requests a minute. */
function startLimitedToTen(processes: number) {
  return startAppServer(process.env.DATABASE_URL!, {
    WEB_CONCURRENCY: String(processes),
    RATE_LIMIT_PER_MINUTE: '10',
    REDIS_URL: '',
    UPSTASH_REDIS_REST_URL: '',
    UPSTASH_REDIS_REST_TOKEN: '',
  });
}

async function answersWithin(ms: number, ask: () => Promise<number>): Promise<boolean> {
  for (const deadline = Date.now() + ms; Date.now() < deadline;) {
    if ((await ask().catch(() => 0)) === 200) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}

describe('npm start supervises its server processes', () => {
  it('replaces a server process killed with SIGKILL and logs which one died and why', async () => {
    const app = await startAppServer(process.env.DATABASE_URL!, { WEB_CONCURRENCY: '1' });
    try {
      const [victim] = app.workers();

      process.kill(victim!, 'SIGKILL');
      // A connection handed to a server process at the moment it dies is never answered: ask again.
      const back = await answersWithin(PATIENCE_MS, () => send(app.baseUrl, '/v1/public/web/statuses', 2_000));

      expect(back).toBe(true);
      expect(app.events()).toContainEqual(expect.objectContaining({ event: 'server.worker_exited', pid: victim, signal: 'SIGKILL' }));
      expect(app.workers()).toHaveLength(1);
      expect(app.workers()).not.toContain(victim);
    } finally {
      await app.stop();
    }
  });

  it('lets a server process finish the request it has in flight on SIGTERM, then exits with 0', async () => {
    const app = await startAppServer(process.env.DATABASE_URL!, { WEB_CONCURRENCY: '2' });
    const body = JSON.stringify({ title: 'Written during shutdown' });
    const request = http.request(`${app.baseUrl}/v1/public/web/tasks`, {
      method: 'POST',
      agent: false,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'content-length': String(body.length) },
    });
    const status = new Promise<number>((resolve, reject) => {
      request.on('response', (response) => {
        response.resume();
        resolve(response.statusCode!);
      });
      request.on('error', reject);
    });
    request.write(body.slice(0, 5));
    await new Promise((resolve) => setTimeout(resolve, 300));

    process.kill(app.pid, 'SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 500));
    request.end(body.slice(5));

    expect(await status).toBe(201);
    expect(await app.stop()).toBe(0);
  });

  it('allows exactly RATE_LIMIT_PER_MINUTE requests per key across server processes on the in-memory limiter', async () => {
    const app = await startLimitedToTen(2);
    try {
      await awayFromWindowEdge();
      const seen = [];
      for (let i = 0; i < 20; i++) seen.push(await send(app.baseUrl, '/v1/public/web/statuses'));

      expect(app.workers()).toHaveLength(2);
      expect(seen).toEqual([...Array(10).fill(200), ...Array(10).fill(429)]);
    } finally {
      await app.stop();
    }
  });

  it('with one server process, counts its requests itself: exactly RATE_LIMIT_PER_MINUTE, and a replaced process starts afresh', async () => {
    const app = await startLimitedToTen(1);
    try {
      await awayFromWindowEdge();
      const seen = [];
      for (let i = 0; i < 12; i++) seen.push(await send(app.baseUrl, '/v1/public/web/statuses'));
      expect(seen).toEqual([...Array(10).fill(200), ...Array(2).fill(429)]);

      // Counted in the supervisor, the key would still be refused after the process that served it died.
      process.kill(app.workers()[0]!, 'SIGKILL');
      expect(await answersWithin(PATIENCE_MS, () => send(app.baseUrl, '/v1/public/web/statuses', 2_000))).toBe(true);
    } finally {
      await app.stop();
    }
  });

  it('shares DATABASE_POOL_SIZE out between the server processes, at least one connection each', () => {
    expect(workerPoolSize(10, 2)).toBe(5);
    expect(workerPoolSize(10, 3)).toBe(3);
    expect(workerPoolSize(2, 4)).toBe(1);
  });
});
