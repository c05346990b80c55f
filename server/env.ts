import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';

/**
 * The whole configuration, parsed once. Every component has an embedded default
 * so that the app runs with nothing configured; this module alone decides which
 * one is used.
 */

const optionalString = z
  .string()
  .trim()
  .optional()
  .transform((value) => (value === '' ? undefined : value));

const url = (protocols: string[]) =>
  optionalString.refine(
    (value) => {
      if (value === undefined) return true;
      try {
        return protocols.includes(new URL(value).protocol);
      } catch {
        return false;
      }
    },
    { message: `must be a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}` },
  );

/** A whole number of at least `min`, or `fallback` when unset. */
const wholeNumberSetting = (fallback: number, min: 0 | 1) => {
  const message = min === 1 ? 'must be a positive whole number' : 'must be a whole number, 0 or more';
  return optionalString.pipe(
    z
      .string()
      .regex(/^\d+$/, message)
      .transform(Number)
      .refine((n) => n >= min, message)
      .optional()
      .transform((n) => n ?? fallback),
  );
};

const schema = z
  .object({
    DATABASE_URL: url(['postgres:', 'postgresql:']),
    DATABASE_URL_UNPOOLED: url(['postgres:', 'postgresql:']),
    DATABASE_REPLICA_URL: url(['postgres:', 'postgresql:']),
    DATABASE_REPLICA_MAX_LAG_MS: wholeNumberSetting(2_000, 1),
    DATABASE_POOL_SIZE: wholeNumberSetting(10, 1),
    REDIS_URL: url(['redis:', 'rediss:']),
    UPSTASH_REDIS_REST_URL: url(['https:', 'http:']),
    UPSTASH_REDIS_REST_TOKEN: optionalString,
    RATE_LIMIT_PER_MINUTE: wholeNumberSetting(60, 1),
    BLOB_READ_WRITE_TOKEN: optionalString.refine((value) => value === undefined || /^vercel_blob_rw_[^_]+_/.test(value), {
      message: 'must look like vercel_blob_rw_<storeId>_<secret>',
    }),
    DATA_DIR: optionalString,
    APP_URL: url(['http:', 'https:']),
    APP_SECRET: optionalString.refine((value) => value === undefined || value.length >= 32, {
      message: 'must be at least 32 characters',
    }),
    SETUP_TOKEN: optionalString.refine((value) => value === undefined || value.length >= 16, {
      message: 'must be at least 16 characters',
    }),
    VERCEL: optionalString,
    VERCEL_ENV: optionalString,
    VERCEL_URL: optionalString,
    VERCEL_BRANCH_URL: optionalString,
    VERCEL_PROJECT_PRODUCTION_URL: optionalString,
    PORT: wholeNumberSetting(3000, 1),
    WEB_CONCURRENCY: wholeNumberSetting(os.availableParallelism(), 1),
    TRUSTED_PROXY_COUNT: wholeNumberSetting(0, 0),
    CRON_SECRET: optionalString,
    WEBHOOK_ALLOW_PRIVATE_ADDRESSES: z.enum(['true', 'false']).optional(),
    WEBHOOK_RESIDENT_WORKER: z.enum(['true', 'false']).optional(),
    WEBHOOKS_ON_PREVIEWS: z.enum(['own', 'all'], { error: 'must be own or all' }).default('own'),
    REQUEST_LOG_RETENTION_DAYS: wholeNumberSetting(30, 0),
    WEBHOOK_RETRY_DELAYS: z
      .string()
      .regex(/^\d+(,\d+)*$/, { message: 'must be whole seconds separated by commas' })
      .default('5,60,600,3600,21600,43200'),
    AUDIT_LOG_RETENTION_DAYS: wholeNumberSetting(400, 1),
  })
  .superRefine((value, ctx) => {
    const pairs = [['UPSTASH_REDIS_REST_URL', 'UPSTASH_REDIS_REST_TOKEN']] as const;
    for (const [a, b] of pairs) {
      if (Boolean(value[a]) !== Boolean(value[b])) {
        const missing = value[a] ? b : a;
        ctx.addIssue({ code: 'custom', path: [missing], message: `must be set together with ${value[a] ? a : b}` });
      }
    }
    const sharedLimiter = Boolean(value.UPSTASH_REDIS_REST_URL || value.REDIS_URL);
    // Serverless file systems are read-only and short-lived: nothing embedded can live there;
    // and instances are many, so limits counted in one instance's memory would multiply.
    if (value.VERCEL) {
      for (const name of ['DATABASE_URL', 'APP_SECRET', 'BLOB_READ_WRITE_TOKEN'] as const) {
        if (!value[name]) ctx.addIssue({ code: 'custom', path: [name], message: 'is required on Vercel' });
      }
      if (!sharedLimiter) {
        ctx.addIssue({
          code: 'custom',
          path: ['UPSTASH_REDIS_REST_URL'],
          message: 'or REDIS_URL is required on Vercel: each instance would count its own rate limits',
        });
      }
    }
    for (const name of ['DATABASE_URL_UNPOOLED', 'DATABASE_REPLICA_URL'] as const) {
      if (value[name] && !value.DATABASE_URL) ctx.addIssue({ code: 'custom', path: [name], message: 'needs DATABASE_URL' });
    }
    // Who wrote a moment ago reads from the primary: every instance must see that mark.
    if (value.DATABASE_REPLICA_URL && !sharedLimiter) {
      ctx.addIssue({
        code: 'custom',
        path: ['DATABASE_REPLICA_URL'],
        message: 'needs REDIS_URL or UPSTASH_REDIS_REST_URL, where every instance sees who has just written',
      });
    }
  });

export type DatabaseChoice =
  | {
      kind: 'postgres';
      /** The app's queries; may be a transaction-mode pooler, so nothing that needs a session goes there. */
      url: string;
      /** A direct connection: migrations and the resident worker's LISTEN. DATABASE_URL when not set. */
      directUrl: string;
      /** A streaming replica the reads may go to (server/db/replica.ts). */
      replica: { url: string; maxLagMs: number } | null;
      poolSize: number;
    }
  | { kind: 'embedded'; dir: string };
export type LimiterChoice = { kind: 'upstash'; url: string; token: string } | { kind: 'redis'; url: string } | { kind: 'memory' };
export type StorageChoice = { kind: 'vercel-blob'; token: string } | { kind: 'local'; dir: string };

export interface Env {
  database: DatabaseChoice;
  limiter: LimiterChoice;
  rateLimitPerMinute: number;
  storage: StorageChoice;
  dataDir: string;
  appUrl: string;
  /** Every origin the pages are served at, from which a state-changing request is accepted. */
  appOrigins: string[];
  /** Null when none is configured: the caller keeps a generated one in the data folder. */
  appSecret: string | null;
  /** The code /setup asks for, chosen by the operator; null: the app makes one and logs it (server/setup/setup-code.ts). */
  setupToken: string | null;
  /**
   * The environment this deployment serves: Vercel's VERCEL_ENV (production, preview, or
   * development; a custom environment is a preview there), else production, which every
   * self-hosted run is. The database records the one that first migrated it (server/db/environment.ts).
   */
  deploymentEnvironment: string;
  port: number;
  /** Server processes `npm start` runs behind its one port (server/launch/supervisor.ts). */
  webConcurrency: number;
  /** Reverse proxies in front of `npm start` whose X-Forwarded-For entries are believed. */
  trustedProxyCount: number;
  /** What Vercel Cron sends as a bearer token to /api/cron/webhooks; unset, that route refuses every call. */
  cronSecret: string | null;
  /** Webhook endpoints may be loopback, private or link-local addresses (development and tests). */
  webhookAllowPrivateAddresses: boolean;
  /**
   * A webhook worker runs beside the server (npm start, npm run dev set this), taking each job
   * as its change commits; without one (Vercel), a request that queued a delivery attempts it
   * after answering.
   */
  webhookResidentWorker: boolean;
  /**
   * Where a deployment that is not production's sends webhooks: `own`, only to endpoints
   * created on such a deployment or marked for previews (the others' deliveries are held);
   * `all`, everywhere (server/webhooks/previews.ts).
   */
  webhooksOnPreviews: 'own' | 'all';
  /** Waits before each retry of a failed webhook delivery; after the last, the endpoint is disabled. */
  webhookRetryDelaysMs: number[];
  /** Days an audit event is kept before the purge deletes it. */
  auditLogRetentionDays: number;
  requestLog: {
    /**
     * Whole UTC days a request stays in the request log; 0 keeps none: no request is
     * recorded, so no usage is counted either (a server that must not keep client addresses).
     */
    retentionDays: number;
    /**
     * Records are written after each answer (Vercel, whose instances are frozen between
     * requests), rather than by a timer in each long-lived server process.
     */
    flushAfterResponse: boolean;
  };
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

export function parseEnv(source: Record<string, string | undefined>): Env {
  const result = schema.safeParse(source);
  if (!result.success) {
    throw new ConfigError(result.error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`));
  }
  const v = result.data;
  // Preview deployments have no fixed URL of their own: Vercel names it in VERCEL_URL.
  const appUrl = (v.APP_URL ?? (v.VERCEL_URL ? `https://${v.VERCEL_URL}` : `http://localhost:${v.PORT}`)).replace(/\/+$/, '');
  // A runtime location, not a file of the app: keep the bundler from tracing it.
  const dataDir = path.resolve(/*turbopackIgnore: true*/ process.cwd(), v.DATA_DIR ?? '.data');
  return {
    database: v.DATABASE_URL
      ? {
          kind: 'postgres',
          url: v.DATABASE_URL,
          directUrl: v.DATABASE_URL_UNPOOLED ?? v.DATABASE_URL,
          replica: v.DATABASE_REPLICA_URL ? { url: v.DATABASE_REPLICA_URL, maxLagMs: v.DATABASE_REPLICA_MAX_LAG_MS } : null,
          poolSize: v.DATABASE_POOL_SIZE,
        }
      : { kind: 'embedded', dir: path.join(dataDir, 'postgres') },
    limiter:
      v.UPSTASH_REDIS_REST_URL && v.UPSTASH_REDIS_REST_TOKEN
        ? { kind: 'upstash', url: v.UPSTASH_REDIS_REST_URL, token: v.UPSTASH_REDIS_REST_TOKEN }
        : v.REDIS_URL
          ? { kind: 'redis', url: v.REDIS_URL }
          : { kind: 'memory' },
    rateLimitPerMinute: v.RATE_LIMIT_PER_MINUTE,
    storage: v.BLOB_READ_WRITE_TOKEN
      ? { kind: 'vercel-blob', token: v.BLOB_READ_WRITE_TOKEN }
      : { kind: 'local', dir: path.join(dataDir, 'files') },
    dataDir,
    appUrl,
    appOrigins: appOrigins(appUrl, [v.VERCEL_URL, v.VERCEL_BRANCH_URL, v.VERCEL_PROJECT_PRODUCTION_URL]),
    appSecret: v.APP_SECRET ?? null,
    setupToken: v.SETUP_TOKEN ?? null,
    deploymentEnvironment: deploymentEnvironment(source),
    port: v.PORT,
    webConcurrency: v.WEB_CONCURRENCY,
    trustedProxyCount: v.TRUSTED_PROXY_COUNT,
    cronSecret: v.CRON_SECRET ?? null,
    webhookAllowPrivateAddresses: v.WEBHOOK_ALLOW_PRIVATE_ADDRESSES === 'true',
    webhookResidentWorker: v.WEBHOOK_RESIDENT_WORKER === 'true',
    webhooksOnPreviews: v.WEBHOOKS_ON_PREVIEWS,
    webhookRetryDelaysMs: v.WEBHOOK_RETRY_DELAYS.split(',').map((seconds) => Number(seconds) * 1000),
    auditLogRetentionDays: v.AUDIT_LOG_RETENTION_DAYS,
    requestLog: { retentionDays: v.REQUEST_LOG_RETENTION_DAYS, flushAfterResponse: Boolean(v.VERCEL) },
  };
}

/**
 * APP_URL's origin and, on Vercel, every host the same deployment answers at: its
 * own URL, its branch alias (where a preview is usually opened) and the
 * production domain. Vercel sets those variables; other hosts set none.
 */
function appOrigins(appUrl: string, vercelHosts: (string | undefined)[]): string[] {
  const origins = new Set([new URL(appUrl).origin]);
  for (const host of vercelHosts) {
    if (!host) continue;
    try {
      origins.add(new URL(`https://${host}`).origin);
    } catch {
      // Not a host name: no page is served there.
    }
  }
  return [...origins];
}

/**
 * The environment a deployment serves (Env.deploymentEnvironment), read from `source`
 * itself: migrations ask for it in processes (a build, a test) that have not set their
 * database yet, and env() would keep a configuration without one.
 */
export function deploymentEnvironment(source: Record<string, string | undefined> = process.env): string {
  return optionalString.parse(source.VERCEL_ENV) ?? 'production';
}

let cached: Env | undefined;

/** The configuration of this process, parsed on first use. */
export function env(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}
