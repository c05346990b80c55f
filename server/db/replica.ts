import type pg from 'pg';
import { env } from '../env';
import { logThrottled } from '../log';
import { dbOnPool, processPool, type Db } from './client';
import { createPool } from './pool';

/**
 * The streaming replica (DATABASE_REPLICA_URL) and how far behind it is.
 *
 * Freshness is measured in positions of the primary's write-ahead log, never in
 * clocks: every so often the primary's current position is noted with the time of
 * this process's own monotonic clock, then the replica's replayed position is read.
 * The replica holds every commit made before the newest note whose position it has
 * replayed; its lag is how long ago that note was taken. It is read only while that
 * lag is within DATABASE_REPLICA_MAX_LAG_MS. Notes are taken every SAMPLE_INTERVAL_MS
 * while reads come, and for ACTIVE_MS after the last: an idle process (a suspended
 * function) asks nothing. The first read after a pause waits for a note a moment
 * (NOTE_WAIT_MS), else goes to the primary.
 */

const SAMPLE_INTERVAL_MS = 250;
const ACTIVE_MS = 30_000;
const NOTE_WAIT_MS = 50;
// Enough notes to find the replayed one at any lag within the bound.
const MAX_NOTES = 64;

interface Note {
  at: number;
  position: bigint;
}

interface Replica {
  db: Db;
  pool: pg.Pool;
  maxLagMs: number;
  notes: Note[];
  /** Monotonic time up to which the replica holds every commit; null until known. */
  holdsUpTo: number | null;
  lastSample: number;
  sampling: Promise<void> | null;
  lastRead: number;
  ticking: NodeJS.Timeout | null;
}

const holder = globalThis as unknown as { __taskApiReplica?: Replica | null };

const onError = (error: Error) => logThrottled('db.replica_connection_lost', 60_000, { error });

function replica(): Replica | null {
  if (holder.__taskApiReplica === undefined) {
    const { database } = env();
    if (database.kind !== 'postgres' || !database.replica) {
      holder.__taskApiReplica = null;
    } else {
      const pool = createPool({
        url: database.replica.url,
        max: database.poolSize,
        applicationName: 'taskapi-replica',
        onError,
      });
      holder.__taskApiReplica = {
        db: dbOnPool(pool, false),
        pool,
        maxLagMs: database.replica.maxLagMs,
        notes: [],
        holdsUpTo: null,
        lastSample: -Infinity,
        sampling: null,
        lastRead: -Infinity,
        ticking: null,
      };
    }
  }
  return holder.__taskApiReplica;
}

/** `X/Y`, as PostgreSQL prints a WAL position, as a number. */
function position(text: string): bigint {
  const [high = '0', low = '0'] = text.split('/');
  return (BigInt(`0x${high}`) << 32n) + BigInt(`0x${low}`);
}

function sample(target: Replica): Promise<void> {
  target.sampling ??= takeNote(target).finally(() => {
    target.sampling = null;
  });
  return target.sampling;
}

async function takeNote(target: Replica): Promise<void> {
  target.lastSample = performance.now();
  try {
    const at = performance.now();
    const primary = await processPool().query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn');
    target.notes.push({ at, position: position(primary.rows[0]!.lsn) });
    if (target.notes.length > MAX_NOTES) target.notes.shift();
    const replayed = await target.pool.query<{ lsn: string | null }>('SELECT pg_last_wal_replay_lsn()::text AS lsn');
    const lsn = replayed.rows[0]?.lsn;
    // A server that is not in recovery replays nothing: it is a primary, current by nature.
    const upTo = lsn === null || lsn === undefined ? Infinity : position(lsn);
    const held = target.notes.filter((note) => note.position <= upTo);
    const newest = held.at(-1);
    if (newest) {
      target.holdsUpTo = newest.at;
      target.notes = target.notes.slice(target.notes.indexOf(newest));
    }
  } catch (error) {
    onError(error as Error);
  }
}

/** Notes taken in the background for as long as reads come. */
function keepSampling(target: Replica): void {
  target.lastRead = performance.now();
  if (target.ticking) return;
  target.ticking = setInterval(() => {
    if (performance.now() - target.lastRead > ACTIVE_MS) {
      clearInterval(target.ticking!);
      target.ticking = null;
    } else {
      void sample(target);
    }
  }, SAMPLE_INTERVAL_MS);
  target.ticking.unref();
}

const within = (target: Replica, now: number) => target.holdsUpTo !== null && now - target.holdsUpTo <= target.maxLagMs;

/** The replica's client while it is within its lag bound, else null (reads go to the primary). */
export async function freshReplica(): Promise<Db | null> {
  const target = replica();
  if (!target) return null;
  keepSampling(target);
  const now = performance.now();
  if (within(target, now)) return target.db;
  // A note taken lately says the replica is behind: no use waiting for another.
  if (now - target.lastSample < SAMPLE_INTERVAL_MS && !target.sampling) return null;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([sample(target), new Promise((resolve) => (timer = setTimeout(resolve, NOTE_WAIT_MS)))]);
  clearTimeout(timer);
  return within(target, performance.now()) ? target.db : null;
}

/** Whether a replica is configured at all. */
export const hasReplica = () => replica() !== null;

/** How long after its write a principal reads from the primary: past it, a replica within its bound holds the write. */
export function replicaStickinessMs(): number {
  const target = replica();
  return target ? target.maxLagMs + SAMPLE_INTERVAL_MS * 4 : 0;
}

/** A read on the replica failed for want of it: not read again until a new note shows it caught up. */
export function replicaFailed(): void {
  const target = replica();
  if (target) target.holdsUpTo = null;
}

export async function disconnectReplica(): Promise<void> {
  const target = holder.__taskApiReplica;
  holder.__taskApiReplica = undefined;
  if (target) {
    if (target.ticking) clearInterval(target.ticking);
    await target.db.$disconnect();
    await target.pool.end();
  }
}
