import type pg from 'pg';
import { processPool } from '../db/client';
import { logEvent } from '../log';
import { bufferedRecords, noteDropped, takeDropped, takeRecords } from './buffer';
import { CREATE_DAYS, DAY_MS, utcDay } from './days';
import type { RequestRecord } from './record';
import { writeRecords } from './write';

/** How often a long-lived server process writes what it has buffered: well within the 2 s a client may wait to find its request. */
const FLUSH_INTERVAL_MS = 1_000;
/** The most records one statement carries. */
const BATCH_RECORDS = 5_000;
/** A database that refuses the log is reported at most this often, with the records lost since. */
const DROPPED_REPORT_MS = 10_000;
// PostgreSQL's answer to a row whose day has no partition yet.
const NO_PARTITION = '23514';

const state: {
  running: Promise<void> | null;
  timer: NodeJS.Timeout | undefined;
  /** The last UTC day whose partitions this process has seen created. */
  readyThrough: string;
  lastError: unknown;
  reportedAt: number;
} = { running: null, timer: undefined, readyThrough: '', lastError: undefined, reportedAt: 0 };

/**
 * Writes every buffered record, one statement per batch, on the process's pool.
 * One flush runs at a time; a call during one waits for it and flushes again, so
 * what it buffered is written when its promise settles. Never rejects: records
 * the database does not take are counted as dropped and reported in the log.
 */
export function flushRequestLog(): Promise<void> {
  if (state.running) return state.running.then(flushRequestLog);
  state.running = drain().finally(() => {
    state.running = null;
  });
  return state.running;
}

/** Under a long-lived server: a flush every second, which does not keep the process alive. */
export function startFlushTimer(): void {
  if (state.timer) return;
  state.timer = setInterval(() => {
    if (!state.running && bufferedRecords() > 0) void flushRequestLog();
  }, FLUSH_INTERVAL_MS);
  state.timer.unref();
}

/** The orderly stop: the timer ends and what is buffered is written before the pool closes. */
export async function stopRequestLog(): Promise<void> {
  clearInterval(state.timer);
  state.timer = undefined;
  await flushRequestLog();
  reportDropped(true);
}

/** What was buffered when it began: records that come meanwhile wait for the next flush, so a failing database is not asked again at once. */
async function drain(): Promise<void> {
  for (let left = bufferedRecords(); left > 0;) {
    const batch = takeRecords(Math.min(BATCH_RECORDS, left));
    left -= batch.length;
    try {
      await write(processPool(), batch);
    } catch (error) {
      noteDropped(batch.length);
      state.lastError = error;
    }
  }
  reportDropped(false);
}

async function write(pool: pg.Pool, batch: RequestRecord[]): Promise<void> {
  await createDays(pool, batch);
  try {
    await writeRecords(pool, batch);
  } catch (error) {
    // Days dropped or never created behind this process's back (a restored database): create them and try once more.
    if ((error as { code?: unknown }).code !== NO_PARTITION) throw error;
    state.readyThrough = '';
    await createDays(pool, batch);
    await writeRecords(pool, batch);
  }
}

/** The partitions of the batch's days and of the day after the last, once per day and process. */
async function createDays(pool: pg.Pool, batch: RequestRecord[]): Promise<void> {
  const times = batch.map((record) => record.occurredAt.getTime());
  const first = Math.min(...times);
  const last = Math.max(...times);
  if (utcDay(last) <= state.readyThrough) return;
  const days = Math.floor(last / DAY_MS) - Math.floor(first / DAY_MS) + 2;
  await pool.query(CREATE_DAYS, [utcDay(first), days]);
  state.readyThrough = utcDay(last + DAY_MS);
}

function reportDropped(now: boolean): void {
  if (!now && Date.now() - state.reportedAt < DROPPED_REPORT_MS) return;
  const dropped = takeDropped();
  if (dropped === 0) return;
  state.reportedAt = Date.now();
  const error = state.lastError as { message?: unknown; code?: unknown } | undefined;
  state.lastError = undefined;
  logEvent('warn', 'request_log.dropped', {
    records: dropped,
    reason: error ? { message: error.message, code: error.code } : 'the buffer was full',
  });
}
