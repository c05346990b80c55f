import { parseArgs } from 'node:util';

export interface BenchOptions {
  /** Seconds each scenario runs at each concurrency. */
  seconds: number;
  /** Seconds of unmeasured load before each measurement, for the JIT and the pools. */
  warmupSeconds: number;
  connections: number[];
  build: boolean;
  /** Scenario names to run; empty: all. */
  only: string[];
  /** Redis for the run with the limiter on Redis; null skips that run. */
  redisUrl: string | null;
  /** PostgreSQL server on which the bench database is created and dropped. */
  serverUrl: string;
  /** Only capture each scenario's statements, ours and the floor's, and compare them: no load, nothing written. */
  statementsOnly: boolean;
  /** Run the scale section alone (scale.ts), replacing its part of latest.md. */
  scaleOnly: boolean;
  /** Top-level tasks of the scale section's projects, smallest first. */
  scaleSizes: number[];
}

const USAGE = `npm run bench -- [--quick] [--seconds N] [--warmup N] [--connections 1,32] [--only list,get] [--skip-build] [--no-redis]
  [--statements] [--scale] [--scale-sizes 1000,100000,1000000]
  Environment: DATABASE_URL (server for the bench database; default postgres://postgres@127.0.0.1:5432/postgres),
  REDIS_URL (default redis://127.0.0.1:6379), BENCH_SECONDS, BENCH_WARMUP_SECONDS.`;

export function parseOptions(argv: string[], env: NodeJS.ProcessEnv): BenchOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      quick: { type: 'boolean', default: false },
      seconds: { type: 'string' },
      warmup: { type: 'string' },
      connections: { type: 'string', default: '1,32' },
      only: { type: 'string', default: '' },
      'skip-build': { type: 'boolean', default: false },
      'no-redis': { type: 'boolean', default: false },
      statements: { type: 'boolean', default: false },
      scale: { type: 'boolean', default: false },
      'scale-sizes': { type: 'string', default: '1000,100000,1000000' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.error(USAGE);
    process.exit(0);
  }
  const number = (text: string | undefined, fallback: number, name: string) => {
    if (text === undefined || text === '') return fallback;
    const value = Number(text);
    if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a number of seconds\n${USAGE}`);
    return value;
  };
  // Quick mode is for checking the harness itself: the figures are noisy.
  const seconds = number(values.seconds ?? env.BENCH_SECONDS, values.quick ? 2 : 10, 'seconds');
  const warmupSeconds = number(values.warmup ?? env.BENCH_WARMUP_SECONDS, values.quick ? 1 : 2, 'warmup');
  return {
    seconds,
    warmupSeconds,
    connections: values.connections
      .split(',')
      .map(Number)
      .filter((n) => n > 0),
    build: !values['skip-build'],
    only: values.only.split(',').filter(Boolean),
    redisUrl: values['no-redis'] ? null : env.REDIS_URL || 'redis://127.0.0.1:6379',
    serverUrl: env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres',
    statementsOnly: values.statements,
    scaleOnly: values.scale,
    scaleSizes: values['scale-sizes']
      .split(',')
      .map(Number)
      .filter((n) => Number.isInteger(n) && n > 0)
      .sort((a, b) => a - b),
  };
}
