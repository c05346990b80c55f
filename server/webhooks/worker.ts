import { Logger, run, runOnce, type TaskList } from 'graphile-worker';
import pg from 'pg';
import type { Db } from '../db/client';
import { logEvent, logThrottled } from '../log';
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
  crontab: '',
  noPreparedStatements: true,
  // Without batching, a job's completion is sent without being awaited, and a run could
  // return, and a function end, before it reached the database; batched (after 0 ms),
  // the pool's end waits for it.
  preset: { worker: { completeJobBatchDelay: 0, failJobBatchDelay: 0 } },
};

// What a run with a time limit does with a job it has no time left for: queues it again,
// due a moment later so that this run does not take it back, and ends it untouched.
const DEFERRED_BY_MS = 1_000;

const tasks = (db: () => Db, lastStart = Infinity): TaskList => ({
  [DELIVER_JOB]: async (payload, helpers) => {
    if (Date.now() > lastStart) {
      await helpers.addJob(DELIVER_JOB, payload, { runAt: new Date(Date.now() + DEFERRED_BY_MS) });
      return;
    }
    await attemptDelivery(db(), (payload as { deliveryId: string }).deliveryId);
  },
});

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
  pool.on('error', (error) => logThrottled('webhooks.worker_connection_lost', LOST_CONNECTION_LOG_INTERVAL_MS, { error }));
  return pool;
}

export interface WebhookWorker {
  /** Lets the attempts under way finish, takes no more, and closes every connection of the worker. */
  stop(): Promise<void>;
}

/** The long-running worker beside the server: jobs start as soon as their transaction commits (LISTEN/NOTIFY). */
export async function startWebhookWorker(connectionString: string, db: () => Db): Promise<WebhookWorker> {
  const pgPool = workerPool(connectionString);
  const runner = await run({ pgPool, taskList: tasks(db), ...options }).catch(async (error: unknown) => {
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
    await runOnce({ pgPool, taskList: tasks(db, Date.now() + withinMs - ATTEMPT_TIMEOUT_MS), ...options });
  } finally {
    await pgPool.end();
  }
}
