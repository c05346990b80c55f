import { after } from 'next/server';
import { db, processPool } from '../db/client';
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
 * Wraps a route handler so that, where no webhook worker runs beside the server
 * (Vercel), a request that queued a webhook delivery attempts it right after its
 * answer has gone (Next's after(), Vercel's waitUntil), rather than at the next
 * Cron call. Under npm start and npm run dev the resident worker takes it at once.
 */
export function deliveringAfterResponse(handler: (req: Request) => Promise<Response>): (req: Request) => Promise<Response> {
  return aroundBoundedRoute(handler, async (req) => {
    const config = env();
    if (config.webhookResidentWorker || config.database.kind !== 'postgres') return handler(req);
    const { result, queued } = await trackQueuedDeliveries(() => handler(req));
    if (queued) {
      after(() =>
        // Loaded only here and in the Cron routes: graphile-worker searches the disk for a
        // config file as it loads, which no request that queued nothing should pay for.
        import('../jobs/worker')
          .then(({ runDueWebhooks }) => runDueWebhooks(processPool(), db, AFTER_RESPONSE_RUN_MS))
          .catch((error: unknown) => logEvent('error', 'webhooks.after_response_failed', { error })),
      );
    }
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
    return response;
  });
}
