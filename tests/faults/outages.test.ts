import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db, disconnectDb } from '../../server/db/client';
import { migrateDatabase } from '../../server/db/migrate';
import { ensureBuild } from '../support/build';
import { startAppServer, type AppServer } from '../e2e/app-server';
import { createWorkspaceFixture } from '../support/fixtures';
import { startPrivatePostgres, type PrivatePostgres } from '../support/private-postgres';
import { startPrivateRedis, type PrivateRedis } from '../support/private-redis';

/**
 * The production server, as `npm start` runs it, on a PostgreSQL and a Redis of
 * its own, under create load from several clients while those are restarted and
 * stopped. What is asserted is what a client sees: every 201 is kept, an outage
 * answers 503 with Retry-After (never a 500, never a hang), and service returns
 * within seconds of the database.
 */

const CLIENTS = 4;
// Past this a request counts as hung: the pool's connection bound (10 s) and some.
const HANG_MS = 12_000;
const RECOVERY_MS = 5_000;

interface Answer {
  status: number;
  started: number;
  ms: number;
  retryAfter: string | null;
  taskId?: string;
}

let pg: PrivatePostgres;
let redis: PrivateRedis;
let app: AppServer;
let key: string;
const answers: Answer[] = [];
let loading = true;
let load: Promise<void>;

async function createTasks(client: number): Promise<void> {
  for (let i = 0; loading; i++) {
    const started = Date.now();
    let answer: Answer;
    try {
      const response = await fetch(`${app.baseUrl}/v1/public/web/tasks`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ title: `Load ${client}-${i}` }),
        signal: AbortSignal.timeout(HANG_MS),
      });
      const body = (await response.json()) as { id?: string };
      answer = { status: response.status, started, ms: Date.now() - started, retryAfter: response.headers.get('retry-after') };
      if (response.status === 201) answer.taskId = body.id;
    } catch {
      answer = { status: 0, started, ms: Date.now() - started, retryAfter: null };
    }
    answers.push(answer);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const between = (from: number, to: number) => answers.filter((answer) => answer.started >= from && answer.started < to);
const count = (list: Answer[]) =>
  Object.fromEntries(statuses(list).map((status) => [status, list.filter((answer) => answer.status === status).length]));
const statuses = (list: Answer[]) => [...new Set(list.map((answer) => answer.status))].sort();

/** How long after `back` the answers turned 201 for good: from then on, every request started was created. */
function recoveredAfter(back: number): number {
  const after = answers.filter((answer) => answer.started >= back).sort((a, b) => a.started - b.started);
  const lastFailure = after.findLast((answer) => answer.status !== 201);
  return lastFailure ? lastFailure.started + lastFailure.ms - back : 0;
}

beforeAll(async () => {
  await ensureBuild();
  [pg, redis] = await Promise.all([startPrivatePostgres(), startPrivateRedis()]);
  await migrateDatabase(pg.url);
  process.env.DATABASE_URL = pg.url;
  key = await (await createWorkspaceFixture()).key();
  app = await startAppServer(pg.url, { WEB_CONCURRENCY: '2', REDIS_URL: redis.url, RATE_LIMIT_PER_MINUTE: '1000000' });
  load = Promise.all(Array.from({ length: CLIENTS }, (_, client) => createTasks(client))).then(() => {});
  await sleep(2_000);
}, 600_000);

const figures: Record<string, unknown> = {};

afterAll(async () => {
  process.stdout.write(`Fault figures: ${JSON.stringify(figures)}\n`);
  loading = false;
  await load;
  await app?.stop();
  await disconnectDb();
  await Promise.all([pg?.remove(), redis?.stop()]);
});

describe('the production server under create load', () => {
  it('answers only 201 or 503 with Retry-After while PostgreSQL restarts, and creates again within 5 s', async () => {
    const stopping = Date.now();
    await pg.restart();
    const back = Date.now();
    await sleep(RECOVERY_MS + 2_000);

    const during = between(stopping, back + RECOVERY_MS);
    figures.restart = { downMs: back - stopping, recoveredMs: recoveredAfter(back), answers: count(during) };
    expect(statuses(during).every((status) => status === 201 || status === 503)).toBe(true);
    expect(during.filter((answer) => answer.status === 503).every((answer) => Number(answer.retryAfter) > 0)).toBe(true);
    expect(recoveredAfter(back)).toBeLessThan(RECOVERY_MS);
  });

  it('answers 503 with Retry-After, promptly, while PostgreSQL is stopped for 10 s, and creates again within 5 s', async () => {
    await pg.stop();
    const stopped = Date.now();
    await sleep(10_000);
    const starting = Date.now();
    await pg.start();
    const back = Date.now();
    await sleep(RECOVERY_MS + 2_000);

    const away = between(stopped, starting).filter((answer) => answer.started + answer.ms < starting);
    const slowestMsWhileAway = Math.max(...away.map((answer) => answer.ms));
    figures.stop10s = { recoveredMs: recoveredAfter(back), slowestMsWhileAway, answers: count(away) };
    expect(away.length).toBeGreaterThan(10);
    expect(statuses(away)).toEqual([503]);
    expect(away.every((answer) => Number(answer.retryAfter) > 0)).toBe(true);
    expect(Math.max(...away.map((answer) => answer.ms))).toBeLessThan(HANG_MS);
    expect(statuses(between(stopped - 1_000, back + RECOVERY_MS)).every((status) => status === 201 || status === 503)).toBe(true);
    expect(recoveredAfter(back)).toBeLessThan(RECOVERY_MS);
  });

  it('serves every request within 1 s while Redis, the rate limiter, is stopped', async () => {
    await redis.stop();
    const stopped = Date.now();
    await sleep(5_000);

    const served = between(stopped, Date.now());
    figures.redisStopped = { slowestMs: Math.max(...served.map((answer) => answer.ms)), answers: count(served) };
    expect(served.length).toBeGreaterThan(10);
    expect(statuses(served)).toEqual([201]);
    expect(Math.max(...served.map((answer) => answer.ms))).toBeLessThan(1_000);
  });

  it('kept every task it acknowledged with 201, and logged the outages once per interval with their count', async () => {
    loading = false;
    await load;
    // The last outage line is written at the end of its interval (server/api/errors.ts).
    await sleep(10_500);

    const acknowledged = answers.flatMap((answer) => (answer.status === 201 ? [answer.taskId!] : []));
    const kept = await db().task.count({ where: { id: { in: acknowledged } } });
    const outageLines = app.events().filter((event) => event.event === 'database.unavailable');
    const refused = answers.filter((answer) => answer.status === 503).length;
    figures.total = { answers: count(answers), kept, outageLines: outageLines.length };

    expect(acknowledged.length).toBeGreaterThan(100);
    expect(kept).toBe(acknowledged.length);
    expect(answers.filter((answer) => answer.status === 0 || answer.status === 500)).toEqual([]);
    expect(outageLines.reduce((sum, event) => sum + Number(event.count), 0)).toBe(refused);
    expect(outageLines.length).toBeLessThan(12);
    expect(app.events().filter((event) => event.level === 'error' && event.event !== 'server.worker_exited')).toEqual([]);
  });
});
