import { AsyncLocalStorage } from 'node:async_hooks';

const scope = new AsyncLocalStorage<{ queued: boolean }>();

/** Marks the request being served as one that queued a webhook delivery. */
export function noteDeliveryQueued(): void {
  const current = scope.getStore();
  if (current) current.queued = true;
}

/**
 * Runs one request's work and says whether it queued a webhook delivery, so that
 * where no worker runs beside the server (Vercel) the request can attempt it once
 * it has answered. A change that rolled back may have said so too: the run then
 * simply finds nothing due.
 */
export async function trackQueuedDeliveries<T>(work: () => Promise<T>): Promise<{ result: T; queued: boolean }> {
  const state = { queued: false };
  const result = await scope.run(state, work);
  return { result, queued: state.queued };
}
