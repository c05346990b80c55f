import { randomBytes } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { Redis as UpstashRedis } from '@upstash/redis';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createLimiter, WINDOW_MS, type Limiter, type RateLimitDecision } from '../../server/ratelimit/limiter';
import { awayFromWindowEdge } from '../support/limit-window';
import { startUpstashBridge, type UpstashBridge } from '../support/upstash-bridge';

/**
 * The limiter on a real Redis: through @upstash/redis and a local server speaking
 * Upstash's REST protocol, and through the plain-Redis transport. Every key this
 * file writes starts with a prefix unique to the run, and is deleted afterwards.
 */

const PER_MINUTE = 60;
const runPrefix = `taskapi-test:${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
const candidates = [...new Set([process.env.REDIS_URL, 'redis://127.0.0.1:6379'].filter((url): url is string => Boolean(url)))];
const redisUrl = await firstAnswering(candidates);
const noRedis = `no Redis answered at ${candidates.join(' or ')}`;

async function firstAnswering(urls: string[]): Promise<string | undefined> {
  for (const url of urls) {
    const probe = new Redis(url, { lazyConnect: true, connectTimeout: 1_000, maxRetriesPerRequest: 0, retryStrategy: () => null });
    probe.on('error', () => undefined);
    try {
      await probe.connect();
      if ((await probe.ping()) === 'PONG') return url;
    } catch {
      // try the next one
    } finally {
      probe.disconnect();
    }
  }
  return undefined;
}

const windowEnd = (now: number) => (Math.floor(now / WINDOW_MS) + 1) * WINDOW_MS;

const remainingOf = (decision: RateLimitDecision) => ('remaining' in decision ? decision.remaining : null);

/** Asks for PER_MINUTE + 1 decisions for one identifier and checks each. */
async function expectLimitedAtSixtyOne(limiter: Limiter, identifier: string) {
  await awayFromWindowEdge();
  const started = Date.now();
  const decisions = [];
  for (let i = 0; i < PER_MINUTE; i++) decisions.push(await limiter.limit(identifier));
  const denied = await limiter.limit(identifier);

  expect(decisions.every((d) => d.success)).toBe(true);
  expect(decisions.map(remainingOf)).toEqual(Array.from({ length: PER_MINUTE }, (_, i) => PER_MINUTE - 1 - i));
  expect(decisions.every((d) => d.limit === PER_MINUTE)).toBe(true);
  expect(denied).toEqual({ success: false, limit: PER_MINUTE, remaining: 0, reset: windowEnd(started) });
}

describe.skipIf(!redisUrl)(`rate limiter on Redis${redisUrl ? '' : ` (skipped: ${noRedis})`}`, () => {
  let redis: Redis;

  beforeAll(async () => {
    redis = new Redis(redisUrl!);
  });

  afterEach(() => {
    expect(storeFailures).toEqual([]);
  });

  afterAll(async () => {
    const keys: string[] = [];
    for await (const batch of redis.scanStream({ match: `${runPrefix}*`, count: 1000 })) keys.push(...(batch as string[]));
    if (keys.length) await redis.del(...keys);
    expect(await redis.keys(`${runPrefix}*`)).toEqual([]);
    await redis.quit();
  });

  describe('the Upstash REST bridge', () => {
    let bridge: UpstashBridge;
    let client: UpstashRedis;

    beforeAll(async () => {
      bridge = await startUpstashBridge(redisUrl!);
      client = new UpstashRedis({ url: bridge.url, token: bridge.token, retry: false, enableTelemetry: false });
    });

    afterAll(() => bridge.close());

    it("runs single commands with the client's base64 encoding, unicode intact", async () => {
      const key = `${runPrefix}:bridge:text`;
      expect(await client.set(key, 'héllo ✓ 📄', { ex: 60 })).toBe('OK');
      expect(await client.get(key)).toBe('héllo ✓ 📄');
      expect(await client.incr(`${runPrefix}:bridge:counter`)).toBe(1);
      expect(await client.get(`${runPrefix}:bridge:missing`)).toBeNull();
      expect(await redis.get(key)).toBe('héllo ✓ 📄');
    });

    it('runs pipelines and transactions', async () => {
      const key = `${runPrefix}:bridge:pipe`;
      expect(await client.pipeline().incr(key).incr(key).get(key).exec()).toEqual([1, 2, 2]);
      expect(await client.multi().incrby(key, 10).decr(key).exec()).toEqual([12, 11]);
    });

    it('answers Redis errors as errors', async () => {
      const key = `${runPrefix}:bridge:string`;
      await client.set(key, 'not a hash', { ex: 60 });
      await expect(client.hincrby(key, 'field', 1)).rejects.toThrow(/WRONGTYPE/);
      await expect(client.evalsha('0'.repeat(40), [], [])).rejects.toThrow(/NOSCRIPT/);
    });

    it('refuses a wrong token', async () => {
      const stranger = new UpstashRedis({ url: bridge.url, token: 'wrong', retry: false, enableTelemetry: false });
      await expect(stranger.get(`${runPrefix}:bridge:text`)).rejects.toThrow(/Unauthorized/);
    });

    it("the limiter denies the 61st request in a minute with remaining 0 and the window's end as reset", async () => {
      const limiter = createLimiter(
        { kind: 'upstash', url: bridge.url, token: bridge.token },
        { perMinute: PER_MINUTE, prefix: `${runPrefix}:upstash`, blockCache: false, onStoreFailure: failOnStoreFailure },
      );
      await expectLimitedAtSixtyOne(limiter, 'key-a');
      // The counts live in Redis, under the limiter's prefix.
      expect(await redis.keys(`${runPrefix}:upstash:key-a:*`)).not.toEqual([]);
    });

    it('another identifier is unaffected', async () => {
      const limiter = createLimiter(
        { kind: 'upstash', url: bridge.url, token: bridge.token },
        { perMinute: PER_MINUTE, prefix: `${runPrefix}:upstash-other`, blockCache: false, onStoreFailure: failOnStoreFailure },
      );
      await awayFromWindowEdge();
      for (let i = 0; i <= PER_MINUTE; i++) await limiter.limit('busy');
      expect((await limiter.limit('busy')).success).toBe(false);

      const other = await limiter.limit('quiet');

      expect(other).toMatchObject({ success: true, limit: PER_MINUTE, remaining: PER_MINUTE - 1 });
    });

    it('with the block cache off, every denied request still asks Redis', async () => {
      const limiter = createLimiter(
        { kind: 'upstash', url: bridge.url, token: bridge.token },
        { perMinute: 2, prefix: `${runPrefix}:upstash-nocache`, blockCache: false, onStoreFailure: failOnStoreFailure },
      );
      await awayFromWindowEdge();
      await limiter.limit('id');
      await limiter.limit('id');
      expect((await limiter.limit('id')).success).toBe(false);

      const before = bridge.commands;
      expect((await limiter.limit('id')).success).toBe(false);
      expect((await limiter.limit('id')).success).toBe(false);

      expect(bridge.commands).toBe(before + 2);
    });
  });

  describe('the plain-Redis transport', () => {
    it("the limiter denies the 61st request in a minute with remaining 0 and the window's end as reset", async () => {
      const limiter = createLimiter(
        { kind: 'redis', url: redisUrl! },
        { perMinute: PER_MINUTE, prefix: `${runPrefix}:redis`, blockCache: false, onStoreFailure: failOnStoreFailure },
      );
      await expectLimitedAtSixtyOne(limiter, 'key-a');
      expect(await redis.keys(`${runPrefix}:redis:key-a:*`)).not.toEqual([]);
    });

    it('another identifier is unaffected', async () => {
      const limiter = createLimiter(
        { kind: 'redis', url: redisUrl! },
        { perMinute: PER_MINUTE, prefix: `${runPrefix}:redis-other`, blockCache: false, onStoreFailure: failOnStoreFailure },
      );
      await awayFromWindowEdge();
      for (let i = 0; i <= PER_MINUTE; i++) await limiter.limit('busy');
      expect((await limiter.limit('busy')).success).toBe(false);

      expect(await limiter.limit('quiet')).toMatchObject({ success: true, limit: PER_MINUTE, remaining: PER_MINUTE - 1 });
    });

    it('counts the first request of a new limiter instead of failing open while it connects', async () => {
      const limiter = createLimiter(
        { kind: 'redis', url: redisUrl! },
        { perMinute: 1, prefix: `${runPrefix}:redis-cold`, blockCache: false, onStoreFailure: failOnStoreFailure },
      );
      await awayFromWindowEdge();
      const [first, second] = await Promise.all([limiter.limit('id'), limiter.limit('id')]);
      expect([first, second].map((d) => d.success).sort()).toEqual([false, true]);
    });

    it('shares its counts with the Upstash client: both run the same algorithm on the same keys', async () => {
      const bridge = await startUpstashBridge(redisUrl!);
      try {
        const options = { perMinute: 4, prefix: `${runPrefix}:shared`, blockCache: false, onStoreFailure: failOnStoreFailure };
        const plain = createLimiter({ kind: 'redis', url: redisUrl! }, options);
        const rest = createLimiter({ kind: 'upstash', url: bridge.url, token: bridge.token }, options);
        await awayFromWindowEdge();

        const remaining = [];
        for (const limiter of [plain, rest, plain, rest]) remaining.push(remainingOf(await limiter.limit('id')));

        expect(remaining).toEqual([3, 2, 1, 0]);
        expect((await plain.limit('id')).success).toBe(false);
        expect((await rest.limit('id')).success).toBe(false);
      } finally {
        await bridge.close();
      }
    });
  });
});

/** Store failures of the limiters that talk to the real Redis: there must be none. */
const storeFailures: unknown[] = [];
function failOnStoreFailure(error: unknown): void {
  storeFailures.push(error);
}

describe('when the store is unreachable', () => {
  const stderrLines = () => {
    const spy = vi.spyOn(process.stderr, 'write');
    return {
      matching: (event: string) => spy.mock.calls.filter(([chunk]) => String(chunk).includes(`"event":"${event}"`)).length,
      restore: () => spy.mockRestore(),
    };
  };

  it('allows requests (fails open) within about a second and logs the failure once, not per request', async () => {
    // The app's own wiring: env() reads REDIS_URL on first use, limits() builds both limiters from it.
    process.env.REDIS_URL = 'redis://127.0.0.1:1';
    process.env.RATE_LIMIT_PER_MINUTE = '3';
    const { limits } = await import('../../server/ratelimit/limits');
    const log = stderrLines();
    try {
      const timings: number[] = [];
      const decisions = [];
      for (let i = 0; i < 10; i++) {
        const started = Date.now();
        decisions.push(await limits().perKey.limit('some-key'));
        decisions.push(await limits().badKeyPerAddress.limit('192.0.2.1'));
        timings.push(Date.now() - started);
      }
      // Let the client's reconnection attempts fail a few more times.
      await new Promise((resolve) => setTimeout(resolve, 300));

      expect(decisions.every((d) => d.success)).toBe(true);
      // Nothing was counted, so nothing is claimed about what remains.
      expect(decisions.map(remainingOf)).toEqual(Array(20).fill(null));
      expect(Math.max(...timings)).toBeLessThan(1_500);
      expect(log.matching('ratelimit.store_unavailable')).toBe(1);
    } finally {
      log.restore();
    }
  });

  it('an Upstash endpoint that never answers: allowed after the 1 s store timeout, the failure reported', async () => {
    const silent = http.createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const failures: unknown[] = [];
    try {
      const limiter = createLimiter(
        { kind: 'upstash', url: `http://127.0.0.1:${(silent.address() as AddressInfo).port}`, token: 'token' },
        { perMinute: 5, prefix: `${runPrefix}:silent`, blockCache: false, onStoreFailure: (error) => failures.push(error) },
      );
      const started = Date.now();
      const decision = await limiter.limit('id');
      const elapsed = Date.now() - started;

      expect(decision).toEqual({ success: true, limit: 5, unmetered: true });
      expect(elapsed).toBeGreaterThanOrEqual(900);
      expect(elapsed).toBeLessThan(2_000);
      expect(failures).toHaveLength(1);
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('a Redis that accepts connections but never answers: requests are allowed within about a second', async () => {
    const sockets = new Set<net.Socket>();
    const silent = net.createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const failures: unknown[] = [];
    try {
      const limiter = createLimiter(
        { kind: 'redis', url: `redis://127.0.0.1:${(silent.address() as AddressInfo).port}` },
        { perMinute: 5, prefix: `${runPrefix}:silent-redis`, blockCache: false, onStoreFailure: (error) => failures.push(error) },
      );
      const timings: number[] = [];
      for (let i = 0; i < 3; i++) {
        const started = Date.now();
        expect((await limiter.limit('id')).success).toBe(true);
        timings.push(Date.now() - started);
      }

      expect(Math.max(...timings)).toBeLessThan(1_500);
      expect(failures.length).toBeGreaterThan(0);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});
