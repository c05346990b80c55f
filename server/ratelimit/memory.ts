import type { Limiter, MeteredDecision } from './limiter';

/**
 * In-process sliding window with @upstash/ratelimit's arithmetic: the previous
 * fixed window's count, weighted by how much of it still overlaps the sliding
 * window, plus the current window's count.
 */
export function createMemorySlidingWindow(tokens: number, windowMs: number): Limiter {
  const counts = new Map<string, { window: number; current: number; previous: number }>();
  return {
    async limit(identifier): Promise<MeteredDecision> {
      const now = Date.now();
      const window = Math.floor(now / windowMs);
      const entry = counts.get(identifier) ?? { window, current: 0, previous: 0 };
      if (entry.window !== window) {
        entry.previous = entry.window === window - 1 ? entry.current : 0;
        entry.current = 0;
        entry.window = window;
      }
      counts.set(identifier, entry);
      const weightedPrevious = Math.floor((1 - (now % windowMs) / windowMs) * entry.previous);
      const reset = (window + 1) * windowMs;
      if (weightedPrevious + entry.current >= tokens) {
        return { success: false, limit: tokens, remaining: 0, reset };
      }
      entry.current += 1;
      sweep(counts, window);
      return { success: true, limit: tokens, remaining: Math.max(0, tokens - (entry.current + weightedPrevious)), reset };
    },
  };
}

// Identifiers idle for two windows carry no weight any more; drop them now and then.
let calls = 0;
function sweep(counts: Map<string, { window: number }>, window: number) {
  if (++calls % 1000 !== 0) return;
  for (const [identifier, entry] of counts) if (entry.window < window - 1) counts.delete(identifier);
}
