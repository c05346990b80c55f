import { env } from '../env';
import { logThrottled } from '../log';
import { createLimiter, type Limiter } from './limiter';

const onStoreFailure = (error: unknown) =>
  logThrottled('ratelimit.store_unavailable', 60_000, { error, note: 'serving requests without rate limits' });

// Requests with a bad key are counted per client address, so guessing keys or
// flooding with bad ones is cut off before it reaches the database.
export const BAD_KEY_ATTEMPTS_PER_MINUTE = 30;

const holder = globalThis as unknown as { __taskApiLimits?: { perKey: Limiter; badKeyPerAddress: Limiter } };

export function limits() {
  if (!holder.__taskApiLimits) {
    const config = env();
    const blockCache = process.env.NODE_ENV === 'production';
    holder.__taskApiLimits = {
      perKey: createLimiter(config.limiter, {
        perMinute: config.rateLimitPerMinute,
        prefix: 'taskapi:key',
        blockCache,
        onStoreFailure,
      }),
      badKeyPerAddress: createLimiter(config.limiter, {
        perMinute: BAD_KEY_ATTEMPTS_PER_MINUTE,
        prefix: 'taskapi:badkey',
        blockCache,
        onStoreFailure,
      }),
    };
  }
  return holder.__taskApiLimits;
}
