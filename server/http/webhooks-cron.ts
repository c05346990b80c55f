import { createHash, timingSafeEqual } from 'node:crypto';
import { db } from '../db/client';
import { env } from '../env';
import { runDueWebhooks } from '../webhooks/worker';

const digest = (value: string) => createHash('sha256').update(value).digest();

function authorised(req: Request): boolean {
  const secret = env().cronSecret;
  if (!secret) return false;
  const sent = req.headers.get('authorization') ?? '';
  return timingSafeEqual(digest(sent), digest(`Bearer ${secret}`));
}

/**
 * Vercel Cron's call (`vercel.json`): runs every webhook delivery that is due,
 * retries included, then answers. Only Vercel, which sends CRON_SECRET as a
 * bearer token, may call it.
 */
export async function answerWebhooksCron(req: Request): Promise<Response> {
  if (!authorised(req)) return Response.json({ statusCode: 401, message: 'Unauthorized' }, { status: 401 });
  const { database } = env();
  if (database.kind !== 'postgres') return Response.json({ statusCode: 503, message: 'Service temporarily unavailable' }, { status: 503 });
  await runDueWebhooks(database.url, db);
  return Response.json({ ok: true }, { headers: { 'Cache-Control': 'no-store' } });
}
