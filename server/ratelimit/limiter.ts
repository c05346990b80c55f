import { Ratelimit } from '@upstash/ratelimit';
import { Redis as UpstashRedis } from '@upstash/redis';
import { env, type LimiterChoice } from '../env';
import { askPrimary, countsInPrimary } from './cluster';
import { createMemorySlidingWindow } from './memory';
import { createRedisScriptTransport } from '../vendor/upstash-ratelimit-on-redis';

export interface MeteredDecision {
  success: boolean;
  limit: number;
  remaining: number;
  /** Unix time in milliseconds at which the current window ends. */
  reset: number;
}

/** Served without being counted: the store could not be asked, so what remains is not known. */
export interface UnmeteredDecision {
  success: true;
  limit: number;
  unmetered: true;
}

export type RateLimitDecision = MeteredDecision | UnmeteredDecision;

/** How long a refused caller should wait, in whole seconds (at least 1), as Retry-After says it. */
export function retryAfterSeconds(decision: Pick<MeteredDecision, 'reset'>, now = Date.now()): number {
  return Math.max(1, Math.ceil((decision.reset - now) / 1000));
}

export interface Limiter {
  limit(identifier: string): Promise<RateLimitDecision>;
}

export const WINDOW_MS = 60_000;
// Past this the request is served rather than kept waiting on the limiter's store.
const STORE_TIMEOUT_MS = 1_000;

interface LimiterOptions {
  perMinute: number;
  prefix: string;
  /** Remember denied identifiers in process memory until their window ends. */
  blockCache?: boolean;
  onStoreFailure(error: unknown): void;
}

/**
 * A sliding window of `perMinute` requests per identifier. On Upstash or a plain
 * Redis it is @upstash/ratelimit's own algorithm; in memory, the same arithmetic,
 * kept by the cluster's primary when `npm start` runs several server processes
 * (WEB_CONCURRENCY), else by the one process.
 * When the store fails or is slow the request is allowed (fail open).
 */
export function createLimiter(choice: LimiterChoice, options: LimiterOptions): Limiter {
  if (choice.kind === 'memory') {
    if (!countsInPrimary(env().webConcurrency)) return createMemorySlidingWindow(options.perMinute, WINDOW_MS);
    const primary = askPrimary(options.prefix, options.perMinute, WINDOW_MS, STORE_TIMEOUT_MS);
    return { limit: (identifier) => primary.limit(identifier).catch((error: unknown) => allowed(error, options)) };
  }
  const redis =
    choice.kind === 'upstash'
      ? new UpstashRedis({ url: choice.url, token: choice.token, retry: false, enableTelemetry: false })
      : createRedisScriptTransport(choice.url, options.onStoreFailure);
  const ratelimit = new Ratelimit({
    redis: redis as UpstashRedis,
    limiter: Ratelimit.slidingWindow(options.perMinute, `${WINDOW_MS} ms`),
    prefix: options.prefix,
    timeout: STORE_TIMEOUT_MS,
    ephemeralCache: options.blockCache === false ? false : undefined,
    analytics: false,
  });
  return {
    async limit(identifier) {
      try {
        const result = await ratelimit.limit(identifier);
        // The library's timeout answer is allowed with made-up figures (limit 0, reset 0).
        if (result.reason === 'timeout') return allowed(new Error('rate limit store timed out'), options);
        return { success: result.success, limit: result.limit, remaining: result.remaining, reset: result.reset };
      } catch (error) {
        return allowed(error, options);
      }
    },
  };
}

function allowed(error: unknown, options: LimiterOptions): UnmeteredDecision {
  options.onStoreFailure(error);
  return { success: true, limit: options.perMinute, unmetered: true };
}
