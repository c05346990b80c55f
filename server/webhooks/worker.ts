import { Logger, parseCronItems, run, runOnce, type Task, type TaskList } from 'graphile-worker';
import pg from 'pg';
import type { Db } from '../db/client';
import { logEvent, logThrottled } from '../log';
import { PURGE_SCHEDULE, PURGE_TASK, purgeStorage, type PurgeCursor } from '../retention/purge';
import { ATTEMPT_TIMEOUT_MS, attemptDelivery } from './deliver';
import { DELIVER_JOB } from './events';

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

/** How the worker's connections are named to PostgreSQL (pg_stat_activity). */
export const WORKER_APPLICATION_NAME = 'taskapi-webhooks';

/**
 * The worker's connections, in a pool of ours rather than one graphile-worker makes:
 * its stop() resolves while its pool's connections are still closing, and it has
 * stopped listening for their errors by then, so a connection the database ended in
 * that moment (a restart, a dropped database) was an unheard 'error' event, which
 * ends the process. Ours is heard for its whole life, and ended after the worker stops.
 */
function workerPool(connectionString: string): pg.Pool {
  const pool = new pg.Pool({ connectionString, max: CONCURRENCY + 1, application_name: WORKER_APPLICATION_NAME });
  const lost = (error: Error) => logThrottled('webhooks.worker_connection_lost', LOST_CONNECTION_LOG_INTERVAL_MS, { error });
  // The pool hears its idle connections; a connection in use (the LISTEN one, held for the
  // worker's life) is heard by its own handler. With both, graphile-worker installs none of
  // its own and prints no warning that the pool lacks them.
  pool.on('error', lost);
  pool.on('connect', (client) => client.on('error', lost));
  return pool;
}

export interface WebhookWorker {
  /** Lets the attempts under way finish, takes no more, and closes every connection of the worker. */
  stop(): Promise<void>;
}

/** The long-running worker beside the server: jobs start as soon as their transaction commits (LISTEN/NOTIFY). */
export async function startWebhookWorker(connectionString: string, db: () => Db): Promise<WebhookWorker> {
  const pgPool = workerPool(connectionString);
  const runner = await run({ pgPool, taskList: tasks(db), parsedCronItems: purgeCron(), ...options }).catch(async (error: unknown) => {
    await pgPool.end();
    throw error;
  });
  return {
    async stop() {
      await runner.stop();
      await pgPool.end();
    },
  };
}

/**
 * Runs the jobs that are due now, then returns, within `withinMs`: for a Cron route or
 * a function's after(), which the platform ends at its time limit. No attempt starts
 * later than one attempt's timeout before the end; the jobs left over are queued again
 * for the next run, their attempts untouched.
 */
export async function runDueWebhooks(connectionString: string, db: () => Db, withinMs: number): Promise<void> {
  const pgPool = workerPool(connectionString);
  try {
    await runOnce({ pgPool, taskList: { [DELIVER_JOB]: deliverTask(db, Date.now() + withinMs - ATTEMPT_TIMEOUT_MS) }, ...options });
  } finally {
    await pgPool.end();
  }
}

/**
 * The purge where no worker keeps a schedule (Vercel's Cron route): queues a run
 * unless one is queued already, then runs it, and the runs it queues after it,
 * within `withinMs`; what is left waits for the next call.
 */
export async function runPurge(connectionString: string, db: () => Db, withinMs: number): Promise<void> {
  const pgPool = workerPool(connectionString);
  try {
    await pgPool.query(`SELECT graphile_worker.add_job($1, '{}'::json, job_key := $1, max_attempts := 1)`, [PURGE_TASK]);
    await runOnce({ pgPool, taskList: { [PURGE_TASK]: purgeTask(db, Date.now() + withinMs - PURGE_RUN_MS) }, ...options });
  } finally {
    await pgPool.end();
  }
}
