import { DATABASE, SUITE_APPLICATION_NAME, type Deployment } from './deployment';

/** One look at where the connections are. */
export interface ConnectionSample {
  at: number;
  /** The primary's client backends on the app's database, the suite's own left out: PgBouncer's (over its socket) and the machines' direct ones. */
  primary: { pooled: number; direct: number };
  /** PgBouncer's pool of the app's database (SHOW POOLS). */
  pool: { clActive: number; clWaiting: number; svActive: number; svIdle: number; maxwaitMs: number };
  /** Per machine, the connections it holds open to the pooler, the primary and the replica. */
  instances: Record<string, { pooled: number; direct: number; replica: number }>;
}

const PRIMARY_CONNECTIONS = `
  SELECT count(*) FILTER (WHERE client_addr IS NULL)::int AS pooled, count(*) FILTER (WHERE client_addr IS NOT NULL)::int AS direct
  FROM pg_stat_activity
  WHERE backend_type = 'client backend' AND datname = $1 AND application_name <> $2`;

/** Looks at the connections every `everyMs` until stopped; a look starts when the one before has ended. */
export function sampleConnections(deployment: Deployment, everyMs = 100): { stop(): Promise<ConnectionSample[]> } {
  const samples: ConnectionSample[] = [];
  let sampling = true;
  const loop = (async () => {
    while (sampling) {
      samples.push(await sample(deployment));
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  })();
  return {
    async stop() {
      sampling = false;
      await loop;
      return samples;
    },
  };
}

async function sample(deployment: Deployment): Promise<ConnectionSample> {
  const at = Date.now();
  const [primary, pools] = await Promise.all([
    deployment.suiteDb.query<{ pooled: number; direct: number }>(PRIMARY_CONNECTIONS, [DATABASE, SUITE_APPLICATION_NAME]),
    deployment.pgbouncer.show('POOLS'),
  ]);
  const pool = pools.find((row) => row.database === DATABASE);
  const instances = Object.fromEntries(
    deployment.instances.map((instance) => [
      instance.name,
      {
        pooled: instance.counters.pooled.connections(),
        direct: instance.counters.direct.connections(),
        replica: instance.counters.replica.connections(),
      },
    ]),
  );
  return {
    at,
    primary: primary.rows[0]!,
    pool: {
      clActive: Number(pool?.cl_active ?? 0),
      clWaiting: Number(pool?.cl_waiting ?? 0),
      svActive: Number(pool?.sv_active ?? 0),
      svIdle: Number(pool?.sv_idle ?? 0),
      maxwaitMs: Number(pool?.maxwait ?? 0) * 1000 + Math.round(Number(pool?.maxwait_us ?? 0) / 1000),
    },
    instances,
  };
}

/** The largest value each field took over the samples. */
export function peaks(samples: ConnectionSample[]) {
  const max = (pick: (sample: ConnectionSample) => number) => Math.max(0, ...samples.map(pick));
  const names = Object.keys(samples[0]?.instances ?? {});
  return {
    samples: samples.length,
    primary: {
      pooled: max((s) => s.primary.pooled),
      direct: max((s) => s.primary.direct),
      total: max((s) => s.primary.pooled + s.primary.direct),
    },
    pool: {
      clActive: max((s) => s.pool.clActive),
      clWaiting: max((s) => s.pool.clWaiting),
      svActive: max((s) => s.pool.svActive),
      maxwaitMs: max((s) => s.pool.maxwaitMs),
    },
    instances: Object.fromEntries(
      names.map((name) => [
        name,
        {
          pooled: max((s) => s.instances[name]!.pooled),
          direct: max((s) => s.instances[name]!.direct),
          replica: max((s) => s.instances[name]!.replica),
        },
      ]),
    ),
  };
}
