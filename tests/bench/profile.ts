import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { productionServerEnv } from '../../server/launch/server-process';
import type { LoadResult } from './load';
import { startProcess } from './server';

/** One line of the profile's summary: where the server's CPU time went, by package. */
export interface ProfileShare {
  where: string;
  percent: number;
}

export interface ProfileSummary {
  scenario: string;
  connections: number;
  requests: number;
  /** CPU time the process spent on anything but waiting, per request answered. */
  busyMsPerRequest: number;
  shares: ProfileShare[];
}

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string } }[];
  samples: number[];
  timeDeltas: number[];
}

/** The package a frame belongs to; our own modules by folder; V8's and Node's own by kind. */
function placeOf(url: string, functionName: string): string {
  if (!url) return functionName === '(garbage collector)' ? 'V8: garbage collection' : `native: ${functionName}`;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  if (url.startsWith('node:')) return `node: ${url.slice(5).split('/')[0]}`;
  const ours = /\/(server\/[^/]+)\//.exec(url);
  return ours ? `ours: ${ours[1]}` : url;
}

/** The samples between `fromMs` and `toMs` after the profile's start: the measured load, not the start-up. */
export function summarise(
  profile: CpuProfile,
  requests: number,
  fromMs: number,
  toMs: number,
): { busyMsPerRequest: number; shares: ProfileShare[] } {
  const frames = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const byPlace = new Map<string, number>();
  let busy = 0;
  let elapsed = 0;
  profile.samples.forEach((id, index) => {
    elapsed += profile.timeDeltas[index] ?? 0;
    if (elapsed < fromMs * 1000 || elapsed > toMs * 1000) return;
    const frame = frames.get(id)!;
    if (frame.functionName === '(idle)' || frame.functionName === '(program)') return;
    const micros = profile.timeDeltas[index] ?? 0;
    busy += micros;
    const place = placeOf(frame.url, frame.functionName);
    byPlace.set(place, (byPlace.get(place) ?? 0) + micros);
  });
  const shares = [...byPlace]
    .map(([where, micros]) => ({ where, percent: (100 * micros) / busy }))
    .sort((a, b) => b.percent - a.percent)
    .filter((share) => share.percent >= 0.5);
  return { busyMsPerRequest: busy / 1000 / requests, shares };
}

/**
 * One production server process (production-server.ts itself, without the supervisor,
 * so that node's --cpu-prof reaches it) under the scenario's load after a warm-up;
 * its CPU profile, written when it stops, summarised by package over the measured
 * load alone.
 */
export async function profileServer(options: {
  root: string;
  port: number;
  env: Record<string, string>;
  scenario: string;
  connections: number;
  warmUp(url: string): Promise<unknown>;
  /** The measured load, against the server's URL. */
  load(url: string): Promise<LoadResult>;
}): Promise<ProfileSummary> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'taskapi-profile-'));
  try {
    // The profile starts with the process: its samples are placed in time from the spawn.
    const spawned = performance.now();
    const server = await startProcess({
      args: [
        '--import',
        'tsx',
        '--cpu-prof',
        `--cpu-prof-dir=${dir}`,
        path.join(options.root, 'server/launch/production-server.ts'),
        '--port',
        String(options.port),
        '--hostname',
        '127.0.0.1',
      ],
      cwd: options.root,
      env: { ...productionServerEnv(process.env), ...options.env },
      port: options.port,
      readyPath: '/v1/public/openapi.json',
    });
    let requests: number;
    let from: number;
    let to: number;
    try {
      await options.warmUp(server.url);
      from = performance.now() - spawned;
      requests = (await options.load(server.url)).requests;
      to = performance.now() - spawned;
    } finally {
      await server.stop();
    }
    const [file] = await readdir(dir);
    if (!file) throw new Error('The server wrote no CPU profile');
    const profile = JSON.parse(await readFile(path.join(dir, file), 'utf8')) as CpuProfile;
    return { scenario: options.scenario, connections: options.connections, requests, ...summarise(profile, requests, from, to) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
