import { boundedRoute } from '@/server/http/exchange';
import { answerPurgeCron } from '@/server/http/webhooks-cron';

export const dynamic = 'force-dynamic';
// Vercel's limit for the function: purge runs, each bounded, within it.
export const maxDuration = 60;

export const GET = boundedRoute(answerPurgeCron);
