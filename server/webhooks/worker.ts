import { Logger, run, runOnce, type Runner, type TaskList } from 'graphile-worker';
import type { Db } from '../db/client';
import { logEvent } from '../log';
import { attemptDelivery } from './deliver';
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
};

const tasks = (db: () => Db): TaskList => ({
  [DELIVER_JOB]: async (payload) => attemptDelivery(db(), (payload as { deliveryId: string }).deliveryId),
});

/** The long-running worker beside the server: jobs start as soon as their transaction commits (LISTEN/NOTIFY). */
export function startWebhookWorker(connectionString: string, db: () => Db): Promise<Runner> {
  return run({ connectionString, taskList: tasks(db), ...options });
}

/** Runs every job that is due now, then returns: for a Cron route or a function's after(). */
export function runDueWebhooks(connectionString: string, db: () => Db): Promise<void> {
  return runOnce({ connectionString, taskList: tasks(db), ...options });
}
