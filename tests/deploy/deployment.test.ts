import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DELIVER_JOB } from '../../server/outbox/delivery-job';
import { withoutTestMarkers } from '../e2e/app-server';
import { runAdmin } from '../support/cli';
import { awayFromWindowEdge } from '../support/limit-window';
import { createWorkspaceFixture, type WorkspaceFixture } from '../support/fixtures';
import { createPerson, settingsClient, signIn } from '../support/settings';
import type { SentStatement } from '../support/pg-counter';
import type { Task, TaskList } from '../support/types';
import { startReceiver } from '../webhooks/receiver';
import { peaks, sampleConnections } from './connections';
import { DATABASE, Deployment, SUITE_APPLICATION_NAME, type Instance } from './deployment';
import { createKeys, KeyRing } from './keys';
import { burst, call, percentile, statusCounts, type Answer } from './traffic';

/**
 * The app as production runs it, on one machine (tests/deploy/deployment.ts): four
 * `npm start` machines behind no load balancer but the test's own turn-taking, on
 * PgBouncer in transaction mode, a primary, a replica 300 ms behind, and one Redis.
 * Each check prints its figures as one JSON line ("Deployment figures: …").
 */

const INSTANCES = 4;
// As on the 2-core machines `npm start` runs on by default (WEB_CONCURRENCY: the cores).
const WEB_CONCURRENCY = 2;
const RATE_LIMIT_PER_MINUTE = 60;
// Time left in the limiter's window that a burst of 100 requests needs at most, on a busy machine.
const BURST_SPARE_MS = 15_000;
const REPLICA_DELAY_MS = 300;
// The connections per `npm start` machine of docs/deploying.md: its server processes' DATABASE_POOL_SIZE (10 by
// default, all of them together) through DATABASE_URL, and the webhook worker's pool on DATABASE_URL_UNPOOLED.
const CONNECTIONS_PER_INSTANCE = { pooled: 10, direct: 5 };
const POOL_SIZE = 20;
// Pooled clients of the suite's own beyond the machines': the admin console, the admin CLI, db:migrate.
const SUITE_CLIENTS = 10;
// How long a key must have been quiet for its reads to be the replica's.
const QUIET_MS = 10_000;
const ROUNDS = 50;
// How PgBouncer logs a client it turned away (max_client_conn, query_wait_timeout, …).
const REFUSAL = /pooler error/i;
const USES_PER_KEY = 50;
const WEBHOOK_P95_BOUND_MS = 15_000;

const root = path.resolve(import.meta.dirname, '../..');
const deployment = new Deployment({
  instances: INSTANCES,
  webConcurrency: WEB_CONCURRENCY,
  rateLimitPerMinute: RATE_LIMIT_PER_MINUTE,
  replicaDelayMs: REPLICA_DELAY_MS,
  pgbouncer: { poolSize: POOL_SIZE, maxClientConnections: INSTANCES * CONNECTIONS_PER_INSTANCE.pooled + SUITE_CLIENTS },
});

let fx: WorkspaceFixture;
let ring: KeyRing;
let roundKeys: string[];
let quietKey: string;
let quietSince: number;
let quietTask: Task;

const report = (check: string, figures: Record<string, unknown>) =>
  process.stdout.write(`Deployment figures: ${JSON.stringify({ check, ...figures })}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const word = () => `w${randomBytes(5).toString('hex')}`;
/** The machines starting from the `n`th, in turn. */
const turn = (n: number): Instance[] => deployment.instances.map((_, i) => deployment.instances[(n + i) % deployment.instances.length]!);

beforeAll(async () => {
  const started = Date.now();
  await deployment.startServices();
  const servicesMs = Date.now() - started;
  // The suite's own records (workspaces, keys, people) go straight to the primary.
  process.env.DATABASE_URL = deployment.directUrl;
  process.env.APP_SECRET = deployment.appSecret;
  const fixtures = (async () => {
    fx = await createWorkspaceFixture();
    ring = new KeyRing(await createKeys(fx.workspace.id, 400), USES_PER_KEY);
    roundKeys = await createKeys(fx.workspace.id, ROUNDS);
    quietKey = (await createKeys(fx.workspace.id, 1))[0]!;
  })();
  await Promise.all([deployment.startInstances(), fixtures]);
  report('startup', { servicesMs, instancesMs: Date.now() - started - servicesMs });

  // What the quiet key writes, long before it reads.
  const [first] = deployment.instances;
  const created = await call(first!, quietKey, 'POST', '/web/tasks', { body: { title: `Quiet ${word()}` } });
  expect(created.status).toBe(201);
  quietTask = created.body as Task;
  expect((await call(first!, quietKey, 'POST', `/web/tasks/${quietTask.id}/comments`, { body: { content: 'Quiet' } })).status).toBe(201);
  quietSince = Date.now();
}, 600_000);

afterAll(async () => {
  await deployment.stop();
}, 120_000);

type ConnectionKind = 'pooled' | 'direct' | 'replica';

/** The statements each kind of connection carried since the last call, all machines together. */
function takeStatements(): Record<ConnectionKind, SentStatement[]> {
  const take = (kind: ConnectionKind) => deployment.instances.flatMap((instance) => instance.counters[kind].take());
  return { pooled: take('pooled'), direct: take('direct'), replica: take('replica') };
}

const counts = (statements: Record<ConnectionKind, SentStatement[]>) => ({
  pooled: statements.pooled.length,
  direct: statements.direct.length,
  replica: statements.replica.length,
});

/** The statements sent most often, their first words and how many times: what a share of statements is made of. */
function mostSent(statements: SentStatement[], most = 5): Record<string, number> {
  const seen = new Map<string, number>();
  for (const { text } of statements) {
    const head = text.replace(/\s+/g, ' ').trim().slice(0, 80);
    seen.set(head, (seen.get(head) ?? 0) + 1);
  }
  return Object.fromEntries([...seen].sort((a, b) => b[1] - a[1]).slice(0, most));
}

describe('the app deployed as production runs it', () => {
  it('applies every migration through the unpooled URL, twice at once and once more, and leaves no advisory lock', async () => {
    const database = 'migrations_check';
    await deployment.suiteDb.query(`CREATE DATABASE ${database}`);
    const migrate = async () => {
      const started = Date.now();
      const env: NodeJS.ProcessEnv = {
        ...(withoutTestMarkers(process.env) as NodeJS.ProcessEnv),
        DATABASE_URL: deployment.pgbouncer.url(database),
        DATABASE_URL_UNPOOLED: deployment.primaryUrl(database),
      };
      const outcome = await promisify(execFile)('npm', ['run', '--silent', 'db:migrate'], { cwd: root, env, timeout: 120_000 }).then(
        () => ({ code: 0, stderr: '' }),
        (error: { code?: number; stderr?: string }) => ({
          code: typeof error.code === 'number' ? error.code : 1,
          stderr: error.stderr ?? '',
        }),
      );
      return { ...outcome, ms: Date.now() - started };
    };
    const runs = [...(await Promise.all([migrate(), migrate()])), await migrate()];

    const client = new pg.Client({ connectionString: deployment.primaryUrl(database, SUITE_APPLICATION_NAME) });
    await client.connect();
    try {
      const folders = (await fs.readdir(path.join(root, 'prisma/migrations'), { withFileTypes: true }))
        .filter((entry) => entry.isDirectory())
        .map((entry) => entry.name)
        .sort();
      const applied = await client.query<{ name: string }>(
        'SELECT migration_name AS name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL ORDER BY 1',
      );
      const reference = await deployment.suiteDb.query<{ id: number }>('SELECT id FROM graphile_worker.migrations ORDER BY id');
      const worker = await client.query<{ id: number }>('SELECT id FROM graphile_worker.migrations ORDER BY id').then(
        (result) => result.rows,
        () => [],
      );
      const locks = await deployment.suiteDb.query<{ database: string; objid: string; pid: number }>(
        `SELECT d.datname AS database, l.objid::text, l.pid FROM pg_locks l LEFT JOIN pg_database d ON d.oid = l.database WHERE l.locktype = 'advisory'`,
      );
      report('migrations', {
        runs: runs.map(({ code, ms }) => ({ code, ms })),
        prismaMigrations: { expected: folders.length, applied: applied.rows.length },
        workerMigrations: { expected: reference.rows.length, applied: worker.length },
        advisoryLocks: locks.rows,
      });

      expect(runs.map((run) => [run.code, run.stderr.slice(-2000)])).toEqual(runs.map(() => [0, expect.any(String)]));
      expect(applied.rows.map((row) => row.name)).toEqual(folders);
      expect(worker).toEqual(reference.rows);
      expect(locks.rows).toEqual([]);
    } finally {
      await client.end();
    }
  });

  it('honours on every other machine at once a session signed in on one', async () => {
    const owner = await createPerson(fx.workspace.id, 'owner');
    const [first, ...others] = deployment.instances;
    const signedIn = await signIn(first!.baseUrl, owner.email, owner.password, deployment.appUrl);
    expect(signedIn.status).toBe(200);
    const seen = await Promise.all(
      others.map(async (instance) => {
        const session = await fetch(`${instance.baseUrl}/api/auth/get-session`, { headers: { cookie: signedIn.cookie } });
        const body = (await session.json()) as { user?: { email: string } } | null;
        const page = await fetch(`${instance.baseUrl}/settings/api-keys`, { headers: { cookie: signedIn.cookie }, redirect: 'manual' });
        const keys = await settingsClient(instance.baseUrl, { cookie: signedIn.cookie, origin: deployment.appUrl }).query('keys.list', {
          workspace: fx.workspace.slug,
        });
        return { instance: instance.name, session: body?.user?.email ?? null, page: page.status, settingsApi: keys.status };
      }),
    );
    report('session', { seen });

    expect(seen).toEqual(others.map((instance) => ({ instance: instance.name, session: owner.email, page: 200, settingsApi: 200 })));
  });

  it(`reads a key's write on every other machine at once, ${ROUNDS} rounds: get, search, change with If-Match`, async () => {
    const failures: string[] = [];
    const started = Date.now();
    takeStatements();
    for (let round = 0; round < ROUNDS; round++) {
      const key = roundKeys[round]!;
      const [origin, ...others] = turn(round);
      let current = word();
      const created = await call(origin!, key, 'POST', '/web/tasks', { body: { title: `Round ${round} ${current}` } });
      if (created.status !== 201) {
        failures.push(`round ${round}: create on ${origin!.name} answered ${created.status}`);
        continue;
      }
      const { id } = created.body as Task;
      for (const other of others) {
        const where = `round ${round} on ${other.name}`;
        const got = await call(other, key, 'GET', `/web/tasks/${id}`);
        const title = (got.body as Task | undefined)?.title;
        if (got.status !== 200 || !title?.endsWith(current)) failures.push(`${where}: GET answered ${got.status} ${title ?? ''}`);
        const found = await call(other, key, 'GET', `/web/tasks?search=${current}`);
        if (!(found.body as TaskList | undefined)?.tasks?.some((task) => task.id === id)) {
          failures.push(`${where}: search for ${current} answered ${found.status} without the task`);
        }
        const next = word();
        const changed = await call(other, key, 'PATCH', `/web/tasks/${id}`, {
          body: { title: `Round ${round} ${next}` },
          headers: { 'if-match': got.etag ?? '' },
        });
        if (changed.status === 200) current = next;
        else failures.push(`${where}: PATCH with If-Match ${got.etag} answered ${changed.status}`);
      }
    }
    const statements = takeStatements();
    report('readYourWrites', {
      rounds: ROUNDS,
      requests: ROUNDS * (1 + 3 * (INSTANCES - 1)),
      failures: failures.length,
      ms: Date.now() - started,
      statements: counts(statements),
    });

    expect(failures).toEqual([]);
  });

  it('serves most reads of a key that has not written for 10 s from the replica', async () => {
    await sleep(quietSince + QUIET_MS - Date.now());
    const reads = [
      `/web/tasks/${quietTask.id}`,
      '/web/tasks',
      `/web/tasks?search=${encodeURIComponent(quietTask.title.split(' ')[1]!)}`,
      `/web/tasks/${quietTask.id}/comments`,
      '/web/statuses',
      '/web/labels',
      '/web/members',
    ];
    takeStatements();
    const answers: Answer[] = [];
    for (let i = 0; i < 42; i++) answers.push(await call(turn(i)[0]!, quietKey, 'GET', reads[i % reads.length]!));
    const statements = takeStatements();
    // What every request sends to the primary wherever its reads go (the key's lookup and its last
    // use) and the replica's lag notes are not reads; the direct connections carry only the resident
    // webhook worker's polls (a few a second, whatever the reads).
    const readsIn = (sent: SentStatement[]) =>
      sent.filter(({ text }) => !/api_key|pg_current_wal_lsn|pg_last_wal_replay_lsn/.test(text)).length;
    const onReplica = readsIn(statements.replica);
    const share = onReplica / (onReplica + readsIn(statements.pooled));
    report('replicaReads', {
      requests: answers.length,
      answers: statusCounts(answers),
      statements: counts(statements),
      readsOnReplica: onReplica,
      readsOnPrimary: readsIn(statements.pooled),
      replicaShare: Number(share.toFixed(3)),
      onThePrimary: { pooled: mostSent(statements.pooled), direct: mostSent(statements.direct) },
    });

    expect(statusCounts(answers)).toEqual({ 200: answers.length });
    expect(share).toBeGreaterThanOrEqual(0.8);
  });

  it(`lets ${RATE_LIMIT_PER_MINUTE} of a key's 100 requests through, spread over the machines`, async () => {
    const [key] = await createKeys(fx.workspace.id, 1);
    // A burst that straddles the minute's turn is let a request or two more (61 of 100 once in CI).
    await awayFromWindowEdge(BURST_SPARE_MS);
    const answers: Answer[] = [];
    for (let wave = 0; wave < 10; wave++) {
      answers.push(
        ...(await Promise.all(Array.from({ length: 10 }, (_, i) => call(turn(wave * 10 + i)[0]!, key!, 'GET', '/web/statuses')))),
      );
    }
    const byInstance = Object.fromEntries(
      deployment.instances.map((instance) => [instance.name, statusCounts(answers.filter((answer) => answer.instance === instance.name))]),
    );
    report('rateLimit', { answers: statusCounts(answers), byInstance });

    expect(statusCounts(answers)).toEqual({ 200: RATE_LIMIT_PER_MINUTE, 429: 100 - RATE_LIMIT_PER_MINUTE });
  });

  // The aim, 95 % within 1 s, is a figure the run reports (docs/tests.md, Deployment tests) rather than
  // asserts: on a machine loaded by other work any time bound is the machine's. What is asserted
  // is that each delivery took one attempt, and a bound past the first retry's 5 s delay.
  it(`delivers every webhook event once, 95 % within ${WEBHOOK_P95_BOUND_MS / 1000} s of its 201`, async () => {
    const receiver = await startReceiver();
    try {
      const hooks = await createWorkspaceFixture();
      const [key] = await createKeys(hooks.workspace.id, 1);
      const created = await runAdmin<{ id: string; secret: string }>(
        ['webhook', 'create', '--workspace', hooks.workspace.slug, '--url', receiver.url('hooks'), '--events', 'task.created', '--json'],
        {
          DATABASE_URL: deployment.pgbouncer.url(DATABASE),
          DATABASE_URL_UNPOOLED: deployment.primaryUrl(DATABASE),
          APP_SECRET: deployment.appSecret,
          WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true',
        },
      );
      expect(created.code).toBe(0);
      const endpoint = created.json;

      const events = 40;
      let sent = 0;
      const load = burst(
        deployment.instances,
        INSTANCES,
        () => sent < events,
        (instance) => {
          sent++;
          return call(instance, key!, 'POST', '/web/tasks', { body: { title: `Hook ${word()}` } });
        },
      );
      await load.done;
      expect(statusCounts(load.answers)).toEqual({ 201: events });
      const acknowledged = new Map(load.answers.map((answer) => [(answer.body as Task).id, answer.ended]));

      // Every delivery recorded as delivered and no job left that could send one again.
      await vi.waitFor(
        async () => {
          const { rows } = await deployment.suiteDb.query<{ pending: number; jobs: number }>(
            `SELECT (SELECT count(*)::int FROM webhook_delivery WHERE endpoint_id = $1 AND status <> 'delivered') +
                    (SELECT ${events} - count(*)::int FROM webhook_delivery WHERE endpoint_id = $1) AS pending,
                    (SELECT count(*)::int FROM graphile_worker.jobs WHERE task_identifier = $2) AS jobs`,
            [endpoint.id, DELIVER_JOB],
          );
          expect(rows[0]).toEqual({ pending: 0, jobs: 0 });
        },
        { timeout: 60_000, interval: 100 },
      );
      const received = receiver.received('hooks');
      const { rows: attempts } = await deployment.suiteDb.query<{ attempts: number; deliveries: number }>(
        'SELECT attempts, count(*)::int AS deliveries FROM webhook_delivery WHERE endpoint_id = $1 GROUP BY attempts ORDER BY attempts',
        [endpoint.id],
      );
      const verifier = new Webhook(endpoint.secret);
      const taskIds = received.map(
        (request) => (verifier.verify(request.body, request.headers) as { data: { task: { id: string } } }).data.task.id,
      );
      const messageIds = received.map((request) => request.headers['webhook-id']);
      const latencies = received.map((request, i) => request.at - acknowledged.get(taskIds[i]!)!);
      report('webhooks', {
        events,
        received: received.length,
        distinctMessages: new Set(messageIds).size,
        latencyMs: { p50: percentile(latencies, 0.5), p95: percentile(latencies, 0.95), max: Math.max(...latencies) },
        attempts: Object.fromEntries(attempts.map((row) => [row.attempts, row.deliveries])),
      });

      expect(received.length).toBe(events);
      expect(Object.fromEntries(attempts.map((row) => [row.attempts, row.deliveries]))).toEqual({ 1: events });
      expect(new Set(messageIds).size).toBe(events);
      expect(new Set(taskIds)).toEqual(new Set(acknowledged.keys()));
      expect(percentile(latencies, 0.95)).toBeLessThanOrEqual(WEBHOOK_P95_BOUND_MS);
    } finally {
      await receiver.close();
    }
  });

  it(`keeps each machine within ${CONNECTIONS_PER_INSTANCE.pooled} pooled and ${CONNECTIONS_PER_INSTANCE.direct} direct connections during a burst, nothing refused`, async () => {
    const logBefore = (await deployment.pgbouncer.log()).length;
    const sampler = sampleConnections(deployment);
    let running = true;
    const timer = setTimeout(() => (running = false), 5_000);
    const load = burst(
      deployment.instances,
      12 * INSTANCES,
      () => running,
      (instance, client, i) => {
        const key = ring.take();
        if (i % 3 === 0)
          return call(instance, key, 'POST', client % 2 ? '/web/tasks' : '/api/tasks', { body: { title: `Burst ${word()}` } });
        if (i % 3 === 1) return call(instance, key, 'GET', '/web/tasks?limit=20');
        return call(instance, key, 'GET', `/web/tasks/${quietTask.id}`);
      },
    );
    await load.done;
    clearTimeout(timer);
    const samples = await sampler.stop();
    const log = (await deployment.pgbouncer.log()).slice(logBefore);
    const refusals = log.split('\n').filter((line) => REFUSAL.test(line));
    const peak = peaks(samples);
    report('connections', { requests: load.answers.length, answers: statusCounts(load.answers), peaks: peak, refusals: refusals.length });

    expect(statusCounts(load.answers.filter((answer) => answer.status !== 200 && answer.status !== 201))).toEqual({});
    expect(refusals).toEqual([]);
    const overBudget = Object.entries(peak.instances).filter(
      ([, instance]) => instance.pooled > CONNECTIONS_PER_INSTANCE.pooled || instance.direct > CONNECTIONS_PER_INSTANCE.direct,
    );
    expect(overBudget).toEqual([]);
    // The primary sees PgBouncer's pool and each machine's direct connections, nothing more.
    expect(peak.primary.total).toBeLessThanOrEqual(POOL_SIZE + INSTANCES * CONNECTIONS_PER_INSTANCE.direct);
  });

  it('loses no acknowledged write when a machine is killed mid-burst, and costs the others no 5xx', async () => {
    const victim = deployment.instances.at(-1)!;
    const logBefore = (await deployment.pgbouncer.log()).length;
    let running = true;
    const load = burst(
      deployment.instances,
      8 * INSTANCES,
      () => running,
      (instance, client) =>
        call(instance, ring.take(), 'POST', client % 2 ? '/web/tasks' : '/api/tasks', { body: { title: `Kill ${word()}` } }),
    );
    const created = (from: Instance[], after = 0) =>
      load.answers.filter((answer) => answer.status === 201 && answer.started >= after && from.some((i) => i.name === answer.instance));
    const survivors = deployment.instances.filter((instance) => instance !== victim);
    try {
      await vi.waitFor(() => expect(created([victim]).length).toBeGreaterThanOrEqual(20), { timeout: 30_000, interval: 50 });
      const killedAt = Date.now();
      await victim.app.kill();
      await vi.waitFor(() => expect(created(survivors, killedAt).length).toBeGreaterThanOrEqual(200), { timeout: 60_000, interval: 50 });
    } finally {
      running = false;
      await load.done;
    }
    const acknowledged = load.answers.filter((answer) => answer.status === 201).map((answer) => (answer.body as Task).id);
    const { rows } = await deployment.suiteDb.query<{ kept: number }>('SELECT count(*)::int AS kept FROM task WHERE id = ANY($1::uuid[])', [
      acknowledged,
    ]);
    const others = load.answers.filter((answer) => answer.instance !== victim.name);
    const refusals = (await deployment.pgbouncer.log())
      .slice(logBefore)
      .split('\n')
      .filter((line) => REFUSAL.test(line));
    report('killInstance', {
      acknowledged: acknowledged.length,
      kept: rows[0]!.kept,
      poolerRefusals: refusals.length,
      victim: statusCounts(load.answers.filter((answer) => answer.instance === victim.name)),
      others: statusCounts(others),
    });

    expect(rows[0]!.kept).toBe(acknowledged.length);
    expect(statusCounts(others)).toEqual({ 201: others.length });
  });
});
