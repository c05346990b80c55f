import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';

type Args = (string | number)[];

/**
 * Lets @upstash/ratelimit run on a plain Redis: it only needs `evalsha` and `eval`.
 * Its scripts start with `#!lua flags=allow-key-locking`, which Redis 7.0 rejects,
 * so the flag line is dropped and the library's script hash is mapped to the hash
 * of the script Redis actually holds (or every call would be a failed EVALSHA).
 *
 * @fits @upstash/ratelimit@2.2.0
 * Relies on: the library calling only `evalsha`, then `eval` on NOSCRIPT, with its
 * scripts' precomputed SHA-1, and the shebang line of its Lua scripts.
 * Guarded by: tests/ratelimit/redis.test.ts (the real library on a real Redis).
 */
export function createRedisScriptTransport(url: string, onError: (error: unknown) => void) {
  const redis = new Redis(url, {
    lazyConnect: false,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: 1_000,
  });
  redis.on('error', onError);
  // The limiter is built on a request, and that request's command would otherwise
  // fail (and be served unlimited) before the connection is up: the first commands
  // wait for it, bounded by the limiter's timeout. Once it has been up or failed,
  // commands go at once, and fail at once while Redis is away (fail open).
  let firstConnection: Promise<void> | null = new Promise((resolve) => {
    const settle = () => {
      for (const event of ['ready', 'error', 'end']) redis.off(event, settle);
      firstConnection = null;
      resolve();
    };
    for (const event of ['ready', 'error', 'end']) redis.once(event, settle);
  });
  const loaded = new Map<string, string>();
  const sha1 = (text: string) => createHash('sha1').update(text).digest('hex');
  const strip = (script: string) => script.replace(/^#!lua[^\n]*\n/, '');

  return {
    async evalsha(hash: string, keys: string[], args: Args) {
      if (firstConnection) await firstConnection;
      const sha = loaded.get(hash);
      if (!sha) throw new Error('NOSCRIPT No matching script');
      return redis.evalsha(sha, keys.length, ...keys, ...args);
    },
    async eval(script: string, keys: string[], args: Args) {
      if (firstConnection) await firstConnection;
      const runnable = strip(script);
      const result = await redis.eval(runnable, keys.length, ...keys, ...args);
      loaded.set(sha1(script), sha1(runnable));
      return result;
    },
  };
}
