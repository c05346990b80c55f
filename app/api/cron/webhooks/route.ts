import { boundedRoute } from '@/server/http/exchange';
import { answerWebhooksCron } from '@/server/http/webhooks-cron';

export const dynamic = 'force-dynamic';
// Vercel's limit for the function: the due attempts, each at most 10 s, run within it.
export const maxDuration = 60;

export const GET = boundedRoute(answerWebhooksCron);
