import http from 'node:http';
import https from 'node:https';
import { Webhook } from 'standardwebhooks';
import { systemContext } from '../audit/context';
import { recordAudit } from '../audit/record';
import type { Db } from '../db/client';
import { env } from '../env';
import { deliverJob } from '../outbox/delivery-job';
import { deliveryRefusal, guardedLookup } from './address';
import { previousSecretSignsUntil, urlWithoutQuery } from './endpoints';
import { heldBecause } from './previews';
import { openSecret } from './secret';

export const ATTEMPT_TIMEOUT_MS = 10_000;
// Enough of a receiver's answer to show on the settings page.
const KEPT_ERROR_CHARS = 500;

interface Outcome {
  code: number | null;
  durationMs: number;
  error: string | null;
}

/** One POST, at most ATTEMPT_TIMEOUT_MS from start to the end of the answer's head. */
function post(url: URL, headers: Record<string, string>, body: string): Promise<Outcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    const refused = deliveryRefusal(url);
    if (refused) {
      resolve({ code: null, durationMs: 0, error: refused });
      return;
    }
    const request = (url.protocol === 'https:' ? https : http).request(url, {
      method: 'POST',
      headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      lookup: guardedLookup,
      agent: false,
      signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
    });
    request.once('response', (response) => {
      // The answer's body is not needed: drop it without buffering.
      response.resume();
      resolve({ code: response.statusCode ?? null, durationMs: elapsed(), error: null });
    });
    request.once('error', (error) => {
      const timedOut = error.name === 'AbortError' || error.name === 'TimeoutError';
      resolve({ code: null, durationMs: elapsed(), error: timedOut ? `No answer within ${ATTEMPT_TIMEOUT_MS / 1000} s` : error.message });
    });
    request.end(body);
  });
}

/**
 * `v1,<signature>` by the endpoint's secret, and by the one a rotation replaced until
 * its day is over, space-separated as Standard Webhooks allows: a receiver that holds
 * either secret verifies the delivery.
 */
function signatures(
  endpoint: { secretSealed: string; previousSecretSealed: string | null; previousSecretExpiresAt: Date | null },
  messageId: string,
  at: Date,
  payload: string,
): string {
  const previous = previousSecretSignsUntil(endpoint, at) ? endpoint.previousSecretSealed : null;
  return [endpoint.secretSealed, previous]
    .flatMap((sealed) => (sealed ? [new Webhook(openSecret(sealed)).sign(messageId, at, payload)] : []))
    .join(' ');
}

/**
 * How long an attempt holds its delivery: well past its own bound, so that only an
 * attempt that died in the middle (its process killed) lets another take it over.
 */
const CLAIM_MS = 6 * ATTEMPT_TIMEOUT_MS;

interface Claimed {
  id: string;
  endpoint_id: string;
  message_id: string;
  payload: string;
  attempts: number;
  claimed_until: Date;
  workspace_id: string;
  url: string;
  secret_sealed: string;
  previous_secret_sealed: string | null;
  previous_secret_expires_at: Date | null;
  created_in: string | null;
  deliver_on_previews: boolean;
}

/**
 * Takes the delivery for one attempt: a compare-and-set on its state, so that of two
 * jobs that reach the same pending delivery (a retry queued while an attempt ran, a
 * worker on another instance) only one POSTs it. Null when it is not pending, its
 * endpoint is disabled, or another attempt holds it.
 */
async function claimDelivery(db: Db, deliveryId: string): Promise<Claimed | null> {
  const [claimed] = await db.$queryRaw<Claimed[]>`
    UPDATE webhook_delivery d SET claimed_until = now() + ${CLAIM_MS} * interval '1 millisecond'
    FROM webhook_endpoint e
    WHERE d.id = ${deliveryId}::uuid AND d.status = 'pending' AND (d.claimed_until IS NULL OR d.claimed_until < now())
      AND e.id = d.endpoint_id AND e.disabled_at IS NULL
    RETURNING d.id::text, d.endpoint_id::text, d.message_id, d.payload, d.attempts, d.claimed_until,
      e.workspace_id::text, e.url, e.secret_sealed, e.previous_secret_sealed, e.previous_secret_expires_at,
      e.created_in, e.deliver_on_previews`;
  return claimed ?? null;
}

/**
 * Makes one attempt at a delivery and records it. A 2xx delivers it; a 410 disables
 * the endpoint at once; anything else schedules the next attempt after the next
 * retry delay, and after the last one fails the endpoint is disabled with the reason.
 * A deployment that may not send to the endpoint (a preview, server/webhooks/previews.ts)
 * records it as held, with why, and sends nothing. The record is written only by the
 * attempt that still holds its claim.
 */
export async function attemptDelivery(db: Db, deliveryId: string): Promise<void> {
  const delivery = await claimDelivery(db, deliveryId);
  if (!delivery) return;
  const held = heldBecause({ createdIn: delivery.created_in, deliverOnPreviews: delivery.deliver_on_previews });
  if (held) {
    await db.webhookDelivery.updateMany({
      where: { id: delivery.id, claimedUntil: delivery.claimed_until },
      data: { status: 'held', lastError: held.slice(0, KEPT_ERROR_CHARS), claimedUntil: null, updatedAt: new Date() },
    });
    return;
  }
  const endpoint = {
    secretSealed: delivery.secret_sealed,
    previousSecretSealed: delivery.previous_secret_sealed,
    previousSecretExpiresAt: delivery.previous_secret_expires_at,
  };
  const now = new Date();
  const outcome = await post(
    new URL(delivery.url),
    {
      'content-type': 'application/json',
      'user-agent': 'task-api-webhooks',
      'webhook-id': delivery.message_id,
      'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
      'webhook-signature': signatures(endpoint, delivery.message_id, now, delivery.payload),
    },
    delivery.payload,
  );
  const attempts = delivery.attempts + 1;
  const delays = env().webhookRetryDelaysMs;
  const delivered = outcome.code !== null && outcome.code >= 200 && outcome.code < 300;
  const gone = outcome.code === 410;
  const exhausted = !delivered && !gone && attempts > delays.length;
  const failure = outcome.error ?? `HTTP ${outcome.code}`;
  await db.$transaction(async (tx) => {
    const { count } = await tx.webhookDelivery.updateMany({
      where: { id: delivery.id, claimedUntil: delivery.claimed_until },
      data: {
        attempts,
        status: delivered ? 'delivered' : gone || exhausted ? 'failed' : 'pending',
        responseCode: outcome.code,
        durationMs: outcome.durationMs,
        lastError: delivered ? null : failure.slice(0, KEPT_ERROR_CHARS),
        claimedUntil: null,
        updatedAt: new Date(),
      },
    });
    // The claim ran out and another attempt took the delivery over: its record stands.
    if (count === 0) return;
    if (gone || exhausted) {
      const reason = gone
        ? 'The endpoint answered 410 Gone.'
        : `Every attempt failed for ${describeDelay(delays.reduce((sum, delay) => sum + delay, 0))}; the last: ${failure.slice(0, 200)}`;
      const { count: disabled } = await tx.webhookEndpoint.updateMany({
        where: { id: delivery.endpoint_id, disabledAt: null },
        data: { disabledAt: new Date(), disabledReason: reason },
      });
      if (disabled === 1) {
        await recordAudit(tx, delivery.workspace_id, systemContext('webhook delivery'), {
          action: 'webhook_endpoint.disabled',
          target: { type: 'webhook_endpoint', id: delivery.endpoint_id, name: urlWithoutQuery(delivery.url) },
          before: { enabled: true },
          after: { enabled: false },
        });
      }
    } else if (!delivered) {
      const runAt = new Date(Date.now() + delays[attempts - 1]!);
      await tx.$executeRaw`SELECT ${deliverJob(delivery.id, runAt)}`;
    }
  });
}

function describeDelay(ms: number): string {
  if (ms >= 3_600_000) return `${Math.round(ms / 3_600_000)} h`;
  if (ms >= 60_000) return `${Math.round(ms / 60_000)} min`;
  return `${Math.round(ms / 1000)} s`;
}
