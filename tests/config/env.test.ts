import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { ConfigError, parseEnv } from '../../server/env';

function problems(source: Record<string, string>): string[] {
  try {
    parseEnv(source);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('expected a configuration error');
}

describe('configuration', () => {
  it('runs on embedded defaults when nothing is configured', () => {
    const env = parseEnv({});
    expect(env.database.kind).toBe('embedded');
    expect(env.limiter).toEqual({ kind: 'memory' });
    expect(env.storage.kind).toBe('local');
    expect(env.rateLimitPerMinute).toBe(60);
    expect(env.appUrl).toBe('http://localhost:3000');
  });

  it('treats empty variables as unset', () => {
    expect(parseEnv({ DATABASE_URL: '', REDIS_URL: '' }).database.kind).toBe('embedded');
  });

  it('uses the real components when they are configured', () => {
    const env = parseEnv({
      DATABASE_URL: 'postgres://app@db.internal:5432/tasks',
      REDIS_URL: 'redis://127.0.0.1:6379',
      BLOB_READ_WRITE_TOKEN: 'vercel_blob_rw_store123_secret',
      RATE_LIMIT_PER_MINUTE: '600',
    });
    expect(env.database).toEqual({
      kind: 'postgres',
      url: 'postgres://app@db.internal:5432/tasks',
      directUrl: 'postgres://app@db.internal:5432/tasks',
      replica: null,
      poolSize: 10,
    });
    expect(env.limiter).toEqual({ kind: 'redis', url: 'redis://127.0.0.1:6379' });
    expect(env.storage).toEqual({ kind: 'vercel-blob', token: 'vercel_blob_rw_store123_secret' });
    expect(env.rateLimitPerMinute).toBe(600);
  });

  it('prefers Upstash over a plain Redis when both are configured', () => {
    const env = parseEnv({
      REDIS_URL: 'redis://127.0.0.1:6379',
      UPSTASH_REDIS_REST_URL: 'https://eu1.upstash.example',
      UPSTASH_REDIS_REST_TOKEN: 'token',
    });
    expect(env.limiter).toEqual({ kind: 'upstash', url: 'https://eu1.upstash.example', token: 'token' });
  });

  it('names every malformed variable at once', () => {
    expect(
      problems({
        DATABASE_URL: 'mysql://x',
        REDIS_URL: 'not a url',
        RATE_LIMIT_PER_MINUTE: 'lots',
        APP_SECRET: 'short',
        SETUP_TOKEN: 'admin',
      }),
    ).toEqual([
      'DATABASE_URL must be a URL starting with postgres:// or postgresql://',
      'REDIS_URL must be a URL starting with redis:// or rediss://',
      'RATE_LIMIT_PER_MINUTE must be a positive whole number',
      'APP_SECRET must be at least 32 characters',
      'SETUP_TOKEN must be at least 16 characters',
    ]);
  });

  it('refuses half of the Upstash pair', () => {
    expect(problems({ UPSTASH_REDIS_REST_URL: 'https://eu1.upstash.example' })).toEqual([
      'UPSTASH_REDIS_REST_TOKEN must be set together with UPSTASH_REDIS_REST_URL',
    ]);
  });

  it('takes own or all for WEBHOOKS_ON_PREVIEWS, own when unset, and production as the environment without VERCEL_ENV', () => {
    expect(parseEnv({}).webhooksOnPreviews).toBe('own');
    expect(parseEnv({ WEBHOOKS_ON_PREVIEWS: 'all' }).webhooksOnPreviews).toBe('all');
    expect(problems({ WEBHOOKS_ON_PREVIEWS: 'some' })).toEqual(['WEBHOOKS_ON_PREVIEWS must be own or all']);
    expect(parseEnv({}).deploymentEnvironment).toBe('production');
    expect(parseEnv({ VERCEL_ENV: 'preview' }).deploymentEnvironment).toBe('preview');
  });

  it('refuses a malformed blob token', () => {
    expect(problems({ BLOB_READ_WRITE_TOKEN: 'abc' })).toEqual(['BLOB_READ_WRITE_TOKEN must look like vercel_blob_rw_<storeId>_<secret>']);
  });

  it('requires the real components on Vercel, where nothing embedded can live and instances are many', () => {
    expect(problems({ VERCEL: '1' })).toEqual([
      'DATABASE_URL is required on Vercel',
      'APP_SECRET is required on Vercel',
      'BLOB_READ_WRITE_TOKEN is required on Vercel',
      'UPSTASH_REDIS_REST_URL or REDIS_URL is required on Vercel: each instance would count its own rate limits',
    ]);
  });

  it('takes the pooled URL for queries, the unpooled one for migrations and LISTEN, and a replica for reads', () => {
    const env = parseEnv({
      DATABASE_URL: 'postgres://app@db-pooler.internal:6543/tasks',
      DATABASE_URL_UNPOOLED: 'postgres://app@db.internal:5432/tasks',
      DATABASE_REPLICA_URL: 'postgres://app@db-replica.internal:5432/tasks',
      REDIS_URL: 'redis://127.0.0.1:6379',
    });
    expect(env.database).toEqual({
      kind: 'postgres',
      url: 'postgres://app@db-pooler.internal:6543/tasks',
      directUrl: 'postgres://app@db.internal:5432/tasks',
      replica: { url: 'postgres://app@db-replica.internal:5432/tasks', maxLagMs: 2000 },
      poolSize: 10,
    });
  });

  it('refuses a replica without a store every instance shares, where who has just written is kept', () => {
    expect(problems({ DATABASE_URL: 'postgres://db/tasks', DATABASE_REPLICA_URL: 'postgres://replica/tasks' })).toEqual([
      'DATABASE_REPLICA_URL needs REDIS_URL or UPSTASH_REDIS_REST_URL, where every instance sees who has just written',
    ]);
  });

  it('refuses an unpooled or replica URL without DATABASE_URL', () => {
    expect(
      problems({ DATABASE_URL_UNPOOLED: 'postgres://db/tasks', DATABASE_REPLICA_URL: 'postgres://replica/tasks', REDIS_URL: 'redis://r' }),
    ).toEqual(['DATABASE_URL_UNPOOLED needs DATABASE_URL', 'DATABASE_REPLICA_URL needs DATABASE_URL']);
  });

  it("takes the app URL from APP_URL, else from a Vercel deployment's own URL", () => {
    expect(parseEnv({ APP_URL: 'https://tasks.example/' }).appUrl).toBe('https://tasks.example');
    expect(parseEnv({ VERCEL_URL: 'task-api-git-fix.vercel.app' }).appUrl).toBe('https://task-api-git-fix.vercel.app');
  });

  it('accepts pages from APP_URL and from every host Vercel serves the deployment at', () => {
    expect(parseEnv({ APP_URL: 'http://localhost:3000/' }).appOrigins).toEqual(['http://localhost:3000']);
    expect(
      parseEnv({
        VERCEL_URL: 'task-api-a1b2c3-team.vercel.app',
        VERCEL_BRANCH_URL: 'task-api-git-fix-team.vercel.app',
        VERCEL_PROJECT_PRODUCTION_URL: 'tasks.example.com',
      }).appOrigins,
    ).toEqual(['https://task-api-a1b2c3-team.vercel.app', 'https://task-api-git-fix-team.vercel.app', 'https://tasks.example.com']);
  });

  it('refuses a rate limit of zero', () => {
    expect(problems({ RATE_LIMIT_PER_MINUTE: '0' })).toEqual(['RATE_LIMIT_PER_MINUTE must be a positive whole number']);
  });

  it('trusts no proxy unless TRUSTED_PROXY_COUNT says how many stand in front', () => {
    expect(parseEnv({}).trustedProxyCount).toBe(0);
    expect(parseEnv({ TRUSTED_PROXY_COUNT: '2' }).trustedProxyCount).toBe(2);
    expect(problems({ TRUSTED_PROXY_COUNT: 'nginx' })).toEqual(['TRUSTED_PROXY_COUNT must be a whole number, 0 or more']);
  });

  it('runs one server process per available core unless WEB_CONCURRENCY says how many', () => {
    expect(parseEnv({}).webConcurrency).toBe(os.availableParallelism());
    expect(parseEnv({ WEB_CONCURRENCY: '3' }).webConcurrency).toBe(3);
    expect(problems({ WEB_CONCURRENCY: '0' })).toEqual(['WEB_CONCURRENCY must be a positive whole number']);
  });

  it('keeps the request log 30 days unless REQUEST_LOG_RETENTION_DAYS says otherwise, and writes it after answers on Vercel', () => {
    expect(parseEnv({}).requestLog).toEqual({ retentionDays: 30, flushAfterResponse: false });
    expect(parseEnv({ REQUEST_LOG_RETENTION_DAYS: '7' }).requestLog.retentionDays).toBe(7);
    expect(parseEnv({ REQUEST_LOG_RETENTION_DAYS: '0' }).requestLog.retentionDays).toBe(0);
    expect(problems({ REQUEST_LOG_RETENTION_DAYS: '-1' })).toEqual(['REQUEST_LOG_RETENTION_DAYS must be a whole number, 0 or more']);
    expect(problems({ REQUEST_LOG_RETENTION_DAYS: 'a month' })).toEqual(['REQUEST_LOG_RETENTION_DAYS must be a whole number, 0 or more']);
  });
});
