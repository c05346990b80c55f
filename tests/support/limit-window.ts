import { WINDOW_MS } from '../../server/ratelimit/limiter';

/**
 * The limits are sliding windows over fixed one-minute windows: a test that
 * crosses a minute boundary would see the previous minute's requests weighted
 * in. Awaited first, it starts the test with at least `spareMs` of its minute left.
 */
export async function awayFromWindowEdge(spareMs = 5_000): Promise<void> {
  const left = WINDOW_MS - (Date.now() % WINDOW_MS);
  if (left < spareMs) await new Promise((resolve) => setTimeout(resolve, left + 100));
}
