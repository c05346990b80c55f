import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { migrateDatabase } from '../../server/db/migrate';
import { startAppServer, type AppServer } from '../e2e/app-server';
import { ensureBuild } from '../support/build';
import { startStatementCounter, type StatementCounter } from '../support/pg-counter';
import { startPrivatePostgres, startPrivateReplica, type PrivatePostgres } from '../support/private-postgres';
import { startPrivateRedis, type PrivateRedis } from '../support/private-redis';
import { startPgBouncer, type PgBouncer } from './pgbouncer';

/**
 * What production runs, on one machine: a PostgreSQL primary, a streaming replica
 * whose apply lags on purpose, PgBouncer in transaction mode in front of the
 * primary, one Redis, and several `npm start` machines sharing one APP_SECRET and
 * that Redis, each with a data folder of its own. Each machine reaches the pooler,
 * the primary and the replica through counters of its own (tests/support/pg-counter.ts),
 * which tell how many statements went where and how many connections it holds.
 */

export const DATABASE = 'taskapi';
/** How the suite's own connections name themselves, so that they are not counted as the app's. */
export const SUITE_APPLICATION_NAME = 'deploy-suite';

export interface DeploymentOptions {
  instances: number;
  /** `WEB_CONCURRENCY` of each machine. */
  webConcurrency: number;
  rateLimitPerMinute: number;
  /** The replica's `recovery_min_apply_delay`. */
  replicaDelayMs: number;
  pgbouncer: { poolSize: number; maxClientConnections: number };
}

/** Where one machine's connections go, each through a counter of its own. */
export interface InstanceCounters {
  pooled: StatementCounter;
  direct: StatementCounter;
  replica: StatementCounter;
}

export interface Instance {
  name: string;
  baseUrl: string;
  app: AppServer;
  counters: InstanceCounters;
}

export class Deployment {
  primary!: PrivatePostgres;
  replica!: PrivatePostgres;
  pgbouncer!: PgBouncer;
  redis!: PrivateRedis;
  instances: Instance[] = [];
  /** One secret for every machine, and for the suite where it seals or reads what they do. */
  readonly appSecret = randomBytes(24).toString('hex');
  /** The one public address the machines answer at, as behind a load balancer. */
  readonly appUrl = 'http://localhost:3000';
  /** The suite's own connection to the primary, for what it checks there. */
  suiteDb!: pg.Pool;
  private readonly teardown: (() => Promise<unknown>)[] = [];
  private readonly machines: AppServer[] = [];
  /** What is starting: stop() waits for it, so that nothing started is left running. */
  private readonly pending: Promise<unknown>[] = [];

  constructor(readonly options: DeploymentOptions) {}

  /** The app's database on the primary, directly, as the suite's connections name themselves. */
  get directUrl(): string {
    return this.primaryUrl(DATABASE, SUITE_APPLICATION_NAME);
  }

  primaryUrl(database: string, applicationName?: string): string {
    const url = new URL(this.primary.url);
    url.pathname = `/${database}`;
    if (applicationName) url.searchParams.set('application_name', applicationName);
    return url.toString();
  }

  /** The services, in parallel where they can be, and the app's database migrated; the build made if it is stale. */
  async startServices(): Promise<void> {
    const built = this.track(ensureBuild());
    const redis = this.track(startPrivateRedis().then((redis) => this.cleanUp((this.redis = redis), () => redis.stop())));
    this.primary = this.cleanUp(await this.track(startPrivatePostgres()), () => this.primary.remove());
    const setup = new pg.Client({ connectionString: this.primaryUrl('postgres', SUITE_APPLICATION_NAME) });
    await setup.connect();
    await setup.query(`CREATE DATABASE ${DATABASE}`).finally(() => setup.end());
    this.suiteDb = this.cleanUp(new pg.Pool({ connectionString: this.directUrl, max: 2 }), () => this.suiteDb.end());

    const replica = this.track(
      startPrivateReplica(this.primary, { recovery_min_apply_delay: `${this.options.replicaDelayMs}ms` }).then((replica) =>
        this.cleanUp((this.replica = replica), () => replica.remove()),
      ),
    );
    const pooler = this.track(
      startPgBouncer(this.primary, this.options.pgbouncer).then((pgbouncer) =>
        this.cleanUp((this.pgbouncer = pgbouncer), () => pgbouncer.stop()),
      ),
    );
    await Promise.all([built, redis, replica, pooler, this.track(migrateDatabase(this.primaryUrl(DATABASE)))]);
  }

  /** The `npm start` machines, side by side. */
  async startInstances(): Promise<void> {
    this.instances = await Promise.all(
      Array.from({ length: this.options.instances }, (_, i) => this.track(this.startInstance(`instance-${i + 1}`))),
    );
  }

  private async startInstance(name: string): Promise<Instance> {
    const replicaUrl = new URL(this.replica.url);
    replicaUrl.pathname = `/${DATABASE}`;
    const counters: InstanceCounters = {
      pooled: await startStatementCounter(this.pgbouncer.url(DATABASE)),
      direct: await startStatementCounter(this.primaryUrl(DATABASE)),
      replica: await startStatementCounter(replicaUrl.toString()),
    };
    for (const counter of Object.values(counters)) this.cleanUp(counter, () => counter.close());
    const app = await startAppServer(
      counters.pooled.url,
      {
        DATABASE_URL_UNPOOLED: counters.direct.url,
        DATABASE_REPLICA_URL: counters.replica.url,
        // What production leaves to its defaults: the pool's size among them.
        DATABASE_POOL_SIZE: undefined,
        REDIS_URL: this.redis.url,
        APP_SECRET: this.appSecret,
        APP_URL: this.appUrl,
        WEB_CONCURRENCY: String(this.options.webConcurrency),
        RATE_LIMIT_PER_MINUTE: String(this.options.rateLimitPerMinute),
        WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true',
      },
      // Machines side by side on two cores, each loading Next.js twice: slower to come up than one.
      { launcher: true, detached: true, readyTimeoutMs: 240_000 },
    );
    this.machines.push(app);
    return { name, baseUrl: app.baseUrl, app, counters };
  }

  private track<T>(starting: Promise<T>): Promise<T> {
    this.pending.push(starting);
    return starting;
  }

  private cleanUp<T>(resource: T, end: () => Promise<unknown>): T {
    this.teardown.push(end);
    return resource;
  }

  /** Everything started, in reverse order, whatever failed before or fails now. */
  async stop(): Promise<void> {
    // The machines first, all at once, and those still starting too: they hold connections to the rest.
    await Promise.allSettled(this.pending);
    await Promise.allSettled(this.machines.splice(0).map(stopOrKill));
    for (const end of this.teardown.splice(0).reverse()) await end().catch(() => {});
  }
}

// Past this an orderly stop is taken to hang: a machine's requests in flight have 10 s to finish.
const STOP_MS = 15_000;

async function stopOrKill(app: AppServer): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), STOP_MS)));
  const stopped = await Promise.race([app.stop(), late]);
  clearTimeout(timer);
  if (stopped === 'late') await app.kill();
}
