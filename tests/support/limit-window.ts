import { WINDOW_MS } from '../../server/ratelimit/limiter';

/**
 * The limits are sliding windows over fixed one-minute windows: a test that
 * crosses a minute boundary would see the previous minute's requests weighted
 * in. Awaited first, it starts the test well inside a minute.
 */
export async function awayFromWindowEdge(): Promise<void> {
  const left = WINDOW_MS - (Date.now() % WINDOW_MS);
  if (left < 5_000) await new Promise((resolve) => setTimeout(resolve, left + 100));
}
