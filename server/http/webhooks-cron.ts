import { createHash, timingSafeEqual } from 'node:crypto';
import type pg from 'pg';
import { db, processPool, type Db } from '../db/client';
import { env } from '../env';

/**
 * How long one Cron call may run: the route's `maxDuration` (60 s) less room to
 * close the database pool and answer before Vercel ends the function.
 */
const CRON_RUN_MS = 50_000;

const digest = (value: string) => createHash('sha256').update(value).digest();

function authorised(req: Request): boolean {
  const secret = env().cronSecret;
  if (!secret) return false;
  const sent = req.headers.get('authorization') ?? '';
  return timingSafeEqual(digest(sent), digest(`Bearer ${secret}`));
}

/**
 * Vercel Cron's call (`vercel.json`): runs the webhook deliveries that are due,
 * retries included, as many as fit in the function's time limit, then answers. Only Vercel, which sends CRON_SECRET as a
 * bearer token, may call it.
 */
export function answerWebhooksCron(req: Request): Promise<Response> {
  return answerCron(req, async (...args) => (await import('../jobs/worker')).runDueWebhooks(...args));
}

/** Vercel Cron's call of the purge (`vercel.json`, every 15 minutes), where no resident worker keeps its schedule. */
export function answerPurgeCron(req: Request): Promise<Response> {
  return answerCron(req, async (...args) => (await import('../jobs/worker')).runPurge(...args));
}

/** A run on the process's pool within the time given; graphile-worker is loaded by the run, not by the route. */
type Run = (pgPool: pg.Pool, db: () => Db, withinMs: number) => Promise<void>;

async function answerCron(req: Request, work: Run): Promise<Response> {
  if (!authorised(req)) return Response.json({ statusCode: 401, message: 'Unauthorized' }, { status: 401 });
  const { database } = env();
  if (database.kind !== 'postgres') return Response.json({ statusCode: 503, message: 'Service temporarily unavailable' }, { status: 503 });
  await work(processPool(), db, CRON_RUN_MS);
  return Response.json({ ok: true }, { headers: { 'Cache-Control': 'no-store' } });
}
