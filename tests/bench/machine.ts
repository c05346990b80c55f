import { readFileSync } from 'node:fs';
import os from 'node:os';
import { createRequire } from 'node:module';
import { Redis } from 'ioredis';
import { serverVersion } from './database';

export interface Machine {
  cpus: number;
  cpuModel: string;
  memoryGiB: number;
  os: string;
  node: string;
  /** The Node production runs on (tests/support/lts-node.mjs), which `npm run bench` runs on unless told otherwise. */
  productionNode: string;
  next: string;
  postgres: string;
  redis: string;
}

async function redisVersion(url: string): Promise<string> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    return /redis_version:(\S+)/.exec(await redis.info('server'))?.[1] ?? 'unknown';
  } catch {
    return 'unreachable';
  } finally {
    redis.disconnect();
  }
}

function productionNode(): string {
  const script = readFileSync(new URL('../support/lts-node.mjs', import.meta.url), 'utf8');
  return `v${/const VERSION = '([^']+)'/.exec(script)?.[1] ?? 'unknown'}`;
}

/** What the figures depend on, printed with them: they mean little without it. */
export async function describeMachine(databaseUrl: string, redisUrl: string | null): Promise<Machine> {
  return {
    cpus: os.availableParallelism(),
    cpuModel: os.cpus()[0]?.model.trim() ?? 'unknown',
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    node: process.version,
    productionNode: productionNode(),
    next: (createRequire(import.meta.url)('next/package.json') as { version: string }).version,
    postgres: await serverVersion(databaseUrl),
    redis: redisUrl ? await redisVersion(redisUrl) : 'not used',
  };
}
