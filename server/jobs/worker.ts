import { Logger, parseCronItems, run, runOnce, type Task, type TaskList } from 'graphile-worker';
import type pg from 'pg';
import { dbOnPool, type Db } from '../db/client';
import { createPool } from '../db/pool';
import { logEvent, logThrottled } from '../log';
import { DELIVER_JOB } from '../outbox/delivery-job';
import { PURGE_SCHEDULE, PURGE_TASK, purgeStorage, type PurgeCursor } from '../retention/purge';
import { ATTEMPT_TIMEOUT_MS, attemptDelivery } from '../webhooks/deliver';

// Several attempts at once, so one slow endpoint holds one slot for at most its timeout.
const CONCURRENCY = 4;

// graphile-worker's chatter goes to the app's JSON log, warnings and errors only.
const logger = new Logger(() => (level, message) => {
  if (level === 'error' || level === 'warning') logEvent(level === 'error' ? 'error' : 'warn', 'webhooks.worker', { message });
});

// The embedded database serves every connection from one PGlite session, where a
// statement prepared on one connection exists on all: graphile-worker's named
// statements then collide ("prepared statement get_job/graphile_worker already
// exists") and no job is ever taken. Unprepared, its queries cost a parse each.
const options = {
  concurrency: CONCURRENCY,
  noHandleSignals: true,
  logger,
  noPreparedStatements: true,
  // Without batching, a job's completion is sent without being awaited, and a run could
  // return, and a function end, before it reached the database; batched (after 0 ms),
  // the pool's end waits for it.
  preset: { worker: { completeJobBatchDelay: 0, failJobBatchDelay: 0 } },
};

// What a run with a time limit does with a job it has no time left for: queues it again,
// due a moment later so that this run does not take it back, and ends it untouched.
const DEFERRED_BY_MS = 1_000;

const deliverTask =
  (db: () => Db, lastStart: number): Task =>
  async (payload, helpers) => {
    if (Date.now() > lastStart) {
      await helpers.addJob(DELIVER_JOB, payload, { runAt: new Date(Date.now() + DEFERRED_BY_MS) });
      return;
    }
    await attemptDelivery(db(), (payload as { deliveryId: string }).deliveryId);
  };

// One purge queued at a time: the schedule's next run, or a run going on from where the last stopped.
const PURGE_JOB = { jobKey: PURGE_TASK, maxAttempts: 1 };
// Room a run of the purge needs before a time limit: it is bounded, a few seconds at most.
const PURGE_RUN_MS = 20_000;

/**
 * A run of the purge; when a part stopped at its bound, the next run is queued at
 * once from there, so each job's work is bounded and a backlog drains job by job.
 * A failure is logged and left to the next scheduled run: a failed job would stay in
 * graphile-worker's table for good.
 */
const purgeTask =
  (db: () => Db, lastStart: number): Task =>
  async (payload, helpers) => {
    const after = (payload as { after?: PurgeCursor }).after;
    if (Date.now() > lastStart) {
      await helpers.addJob(PURGE_TASK, { after }, { ...PURGE_JOB, runAt: new Date(Date.now() + DEFERRED_BY_MS) });
      return;
    }
    try {
      const { next, ...purged } = await purgeStorage(db(), { after });
      logEvent('info', 'storage.purged', purged);
      if (next) await helpers.addJob(PURGE_TASK, { after: next }, PURGE_JOB);
    } catch (error) {
      logEvent('error', 'storage.purge_failed', { error });
    }
  };

const tasks = (db: () => Db, lastStart = Infinity): TaskList => ({
  [DELIVER_JOB]: deliverTask(db, lastStart),
  [PURGE_TASK]: purgeTask(db, lastStart),
});

const PURGE_BACKFILL_MS = 15 * 60_000;

/**
 * The purge's schedule on the resident worker. A run missed while no worker ran
 * (a restart across a quarter hour) is made up at start (graphile-worker's backfill),
 * at most one: the job key keeps one queued.
 */
const purgeCron = () =>
  parseCronItems([
    {
      task: PURGE_TASK,
      match: PURGE_SCHEDULE,
      identifier: PURGE_TASK,
      options: { ...PURGE_JOB, backfillPeriod: PURGE_BACKFILL_MS },
    },
  ]);

const LOST_CONNECTION_LOG_INTERVAL_MS = 60_000;

/** How the resident worker's connections are named to PostgreSQL (pg_stat_activity). */
export const WORKER_APPLICATION_NAME = 'taskapi-webhooks';

/** The resident worker's connections: one held by LISTEN, one for each attempt under way. */
export const WORKER_POOL_SIZE = CONCURRENCY + 1;

function warmUp(db: Db): Promise<unknown> {
  return Promise.all([db.$queryRaw`SELECT 1`, db.webhookDelivery.findFirst({ select: { id: true } })]);
}

export interface WebhookWorker {
  /** Lets the attempts under way finish, takes no more, and closes every connection of the worker. */
  stop(): Promise<void>;
}

/**
 * The long-running worker beside the server: jobs start as soon as their transaction
 * commits (LISTEN/NOTIFY). Its one pool, shared by graphile-worker and the attempts'
 * own statements, is on the direct URL: a transaction-mode pooler drops LISTEN's
 * notifications, and with them graphile-worker's notice of a breaking migration.
 * The pool is ours rather than one graphile-worker makes: its stop() resolves while
 * its pool's connections are still closing, and it has stopped listening for their
 * errors by then; ours are heard for their whole life (server/db/pool.ts).
 */
export async function startWebhookWorker(directUrl: string): Promise<WebhookWorker> {
  const pgPool = createPool({
    url: directUrl,
    max: WORKER_POOL_SIZE,
    applicationName: WORKER_APPLICATION_NAME,
    onError: (error) => logThrottled('webhooks.worker_connection_lost', LOST_CONNECTION_LOG_INTERVAL_MS, { error }),
  });
  const workerDb = dbOnPool(pgPool, false);
  // Prisma's client sets itself up on its first statements, which took seconds of the first
  // deliveries after a start on a busy machine: paid here instead, a raw and a built statement.
  const runner = await warmUp(workerDb)
    .then(() => run({ pgPool, taskList: tasks(() => workerDb), parsedCronItems: purgeCron(), ...options }))
    .catch(async (error: unknown) => {
      await pgPool.end();
      throw error;
    });
  return {
    async stop() {
      await runner.stop();
      await workerDb.$disconnect();
      await pgPool.end();
    },
  };
}

/**
 * Runs the jobs that are due now, then returns, within `withinMs`: for a Cron route or
 * a function's after(), which the platform ends at its time limit. No attempt starts
 * later than one attempt's timeout before the end; the jobs left over are queued again
 * for the next run, their attempts untouched. It runs on the process's own pool (no
 * LISTEN: a pooler is fine), so a request that queued a delivery opens no pool of its own.
 */
export async function runDueWebhooks(pgPool: pg.Pool, db: () => Db, withinMs: number): Promise<void> {
  await runOnce({ pgPool, taskList: { [DELIVER_JOB]: deliverTask(db, Date.now() + withinMs - ATTEMPT_TIMEOUT_MS) }, ...options });
}

/**
 * The purge where no worker keeps a schedule (Vercel's Cron route): queues a run
 * unless one is queued already, then runs it, and the runs it queues after it,
 * within `withinMs`; what is left waits for the next call.
 */
export async function runPurge(pgPool: pg.Pool, db: () => Db, withinMs: number): Promise<void> {
  await pgPool.query(`SELECT graphile_worker.add_job($1, '{}'::json, job_key := $1, max_attempts := 1)`, [PURGE_TASK]);
  await runOnce({ pgPool, taskList: { [PURGE_TASK]: purgeTask(db, Date.now() + withinMs - PURGE_RUN_MS) }, ...options });
}
