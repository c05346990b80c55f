import { after } from 'next/server';
import { db, processPool } from '../db/client';
import { PRODUCTION } from '../db/environment';
import { env } from '../env';
import { logEvent } from '../log';
import { bufferedRecords } from '../request-log/buffer';
import { flushRequestLog } from '../request-log/flush';
import { trackQueuedDeliveries } from '../outbox/request-scope';
import { aroundBoundedRoute } from './exchange';

/**
 * How long the run after a response may take: well within the shortest time limit
 * Vercel gives a function (60 s); what does not fit is left to the Cron route.
 */
const AFTER_RESPONSE_RUN_MS = 30_000;

/**
 * Where no Cron Job calls (a preview: Vercel runs Cron Jobs on production only), the
 * overdue work is run after answers instead: the due webhook deliveries, retries
 * included, at most once a minute per instance, and the purge at most once per its
 * 15 minutes. The times are this instance's: each of several instances runs its own.
 */
const OVERDUE_WEBHOOKS_EVERY_MS = 60_000;
const OVERDUE_PURGE_EVERY_MS = 15 * 60_000;
const lastRun = { webhooks: 0, purge: 0 };

function overdueWork(now = Date.now()): { webhooks: boolean; purge: boolean } {
  const config = env();
  const cronless = config.deploymentEnvironment !== PRODUCTION;
  const webhooks = cronless && now - lastRun.webhooks >= OVERDUE_WEBHOOKS_EVERY_MS;
  const purge = cronless && now - lastRun.purge >= OVERDUE_PURGE_EVERY_MS;
  if (webhooks) lastRun.webhooks = now;
  if (purge) lastRun.purge = now;
  return { webhooks, purge };
}

/** Where no worker runs beside the server (Vercel, next start): the answers carry the scheduled work. */
const workerless = () => !env().webhookResidentWorker && env().database.kind === 'postgres';

/**
 * The webhook deliveries that are due and, when asked, the purge, after the answer has gone
 * (Next's after(), Vercel's waitUntil). graphile-worker is loaded only here and in the Cron
 * routes: it searches the disk for a config file as it loads, which no request that has
 * nothing to run should pay for.
 */
function runAfterResponse(work: { webhooks: boolean; purge: boolean }): void {
  if (!work.webhooks && !work.purge) return;
  after(() =>
    import('../jobs/worker')
      // Side by side, so that both end within the run's 30 s.
      .then(({ runDueWebhooks, runPurge }) =>
        Promise.all([
          work.webhooks && runDueWebhooks(processPool(), db, AFTER_RESPONSE_RUN_MS),
          work.purge && runPurge(processPool(), db, AFTER_RESPONSE_RUN_MS),
        ]),
      )
      .catch((error: unknown) => logEvent('error', 'webhooks.after_response_failed', { error })),
  );
}

/**
 * Wraps a route handler so that, where no webhook worker runs beside the server
 * (Vercel), a request that queued a webhook delivery attempts it right after its
 * answer has gone, rather than at the next Cron call; on a preview, its answer also
 * carries the overdue work no Cron Job runs there. Under npm start and npm run dev the
 * resident worker takes every job at once and keeps the purge's schedule.
 */
export function deliveringAfterResponse(handler: (req: Request) => Promise<Response>): (req: Request) => Promise<Response> {
  return aroundBoundedRoute(handler, async (req) => {
    if (!workerless()) return handler(req);
    const { result, queued } = await trackQueuedDeliveries(() => handler(req));
    const overdue = overdueWork();
    runAfterResponse({ webhooks: queued || overdue.webhooks, purge: overdue.purge });
    return result;
  });
}

/**
 * Wraps a route handler of the public API or MCP so that, on Vercel, whose instances
 * are frozen between requests and run no timer, the request log's records are written
 * right after the answer has gone (Next's after()). Under npm start and npm run dev a
 * timer in each server process writes them (record-request.ts); this module is not
 * loaded there, as next/server may only be loaded once Next.js has set up its server.
 */
export function writingLogAfterResponse(handler: (req: Request) => Promise<Response>): (req: Request) => Promise<Response> {
  return aroundBoundedRoute(handler, async (req) => {
    const response = await handler(req);
    if (env().requestLog.flushAfterResponse && bufferedRecords() > 0) after(flushRequestLog);
    // Every answer of the API and MCP, reads too, may carry a preview's overdue work (the settings API's in deliveringAfterResponse).
    if (workerless()) runAfterResponse(overdueWork());
    return response;
  });
}
