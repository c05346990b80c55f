import { Redis as UpstashRedis } from '@upstash/redis';
import { Redis } from 'ioredis';
import { env, type LimiterChoice } from '../env';
import { logThrottled } from '../log';

/**
 * Who has written in the last moments, kept in the limiter's store where every
 * instance sees it: a principal so marked reads from the primary, so that it reads
 * its own writes whichever instance answers (server/api/reads.ts). A mark lives for
 * the replica's stickiness (server/db/replica.ts), in the store's own clock.
 */
export interface RecentWriters {
  mark(principalId: string, forMs: number): Promise<void>;
  /** True also when the store cannot tell: reading from the primary is never wrong. */
  wroteRecently(principalId: string): Promise<boolean>;
}

const PREFIX = 'taskapi:wrote:';
// As the limiter's bound on its store: past it, the answer is the safe one.
const STORE_TIMEOUT_MS = 1_000;

const onStoreFailure = (error: unknown) =>
  logThrottled('replica.writers_store_unavailable', 60_000, { error, note: 'reading from the primary' });

function withinBound<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('recent writers store timed out')), STORE_TIMEOUT_MS);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

function inStore(choice: Exclude<LimiterChoice, { kind: 'memory' }>): RecentWriters {
  const store =
    choice.kind === 'upstash'
      ? (() => {
          const redis = new UpstashRedis({ url: choice.url, token: choice.token, retry: false, enableTelemetry: false });
          return {
            set: (key: string, ms: number) => redis.set(key, 1, { px: ms }).then(() => {}),
            exists: (key: string) => redis.exists(key),
          };
        })()
      : (() => {
          const redis = new Redis(choice.url, { enableOfflineQueue: true, maxRetriesPerRequest: 0, connectTimeout: STORE_TIMEOUT_MS });
          redis.on('error', onStoreFailure);
          return {
            set: (key: string, ms: number) => redis.set(key, '1', 'PX', ms).then(() => {}),
            exists: (key: string) => redis.exists(key),
          };
        })();
  return {
    mark: (principalId, forMs) => withinBound(store.set(PREFIX + principalId, forMs)),
    async wroteRecently(principalId) {
      try {
        return (await withinBound(store.exists(PREFIX + principalId))) > 0;
      } catch (error) {
        onStoreFailure(error);
        return true;
      }
    },
  };
}

const holder = globalThis as unknown as { __taskApiRecentWriters?: RecentWriters };

export function recentWriters(): RecentWriters {
  if (!holder.__taskApiRecentWriters) {
    const { limiter } = env();
    // server/env.ts refuses a replica, the one user of these marks, without a shared store.
    if (limiter.kind === 'memory') throw new Error('Recent writers need REDIS_URL or Upstash');
    holder.__taskApiRecentWriters = inStore(limiter);
  }
  return holder.__taskApiRecentWriters;
}
