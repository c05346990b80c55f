import { Logger, run, runOnce, type Runner, type TaskList } from 'graphile-worker';
import type { Db } from '../db/client';
import { logEvent } from '../log';
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
  maxPoolSize: CONCURRENCY + 1,
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

/** The long-running worker beside the server: jobs start as soon as their transaction commits (LISTEN/NOTIFY). */
export function startWebhookWorker(connectionString: string, db: () => Db): Promise<Runner> {
  return run({ connectionString, taskList: tasks(db), ...options });
}

/**
 * Runs the jobs that are due now, then returns, within `withinMs`: for a Cron route or
 * a function's after(), which the platform ends at its time limit. No attempt starts
 * later than one attempt's timeout before the end; the jobs left over are queued again
 * for the next run, their attempts untouched.
 */
export function runDueWebhooks(connectionString: string, db: () => Db, withinMs: number): Promise<void> {
  return runOnce({ connectionString, taskList: tasks(db, Date.now() + withinMs - ATTEMPT_TIMEOUT_MS), ...options });
}
