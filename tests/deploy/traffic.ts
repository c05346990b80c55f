import type { Instance } from './deployment';

/** One answer of the public API, as a client saw it; status 0 when no answer came (refused, reset, timed out). */
export interface Answer {
  instance: string;
  method: string;
  path: string;
  status: number;
  etag: string | null;
  body: unknown;
  started: number;
  ended: number;
}

// Past this a request counts as hung: the pool's wait for a connection (10 s), and more for a machine busy starting its processes.
const HANG_MS = 30_000;

/** A request to /v1/public on one machine with an API key. */
export async function call(
  instance: Instance,
  key: string,
  method: string,
  path: string,
  options: { body?: unknown; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const started = Date.now();
  const headers: Record<string, string> = { authorization: `Bearer ${key}`, ...options.headers };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  try {
    const response = await fetch(`${instance.baseUrl}/v1/public${path}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: AbortSignal.timeout(HANG_MS),
    });
    const text = await response.text();
    return {
      instance: instance.name,
      method,
      path,
      status: response.status,
      etag: response.headers.get('etag'),
      body: text ? JSON.parse(text) : undefined,
      started,
      ended: Date.now(),
    };
  } catch {
    return { instance: instance.name, method, path, status: 0, etag: null, body: undefined, started, ended: Date.now() };
  }
}

/** A burst under way: its answers so far, and its end. */
export interface Burst {
  answers: Answer[];
  done: Promise<void>;
}

/**
 * `clients` clients, each sending one request after another, spread over the
 * machines in turn, until `running()` says no more.
 */
export function burst(
  instances: Instance[],
  clients: number,
  running: () => boolean,
  send: (instance: Instance, client: number, i: number) => Promise<Answer>,
): Burst {
  const answers: Answer[] = [];
  let turn = 0;
  const done = Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      for (let i = 0; running(); i++) {
        const instance = instances[turn++ % instances.length]!;
        answers.push(await send(instance, client, i));
      }
    }),
  ).then(() => {});
  return { answers, done };
}

/** How many answers had each status: `{"201": 812, "0": 3}`. */
export function statusCounts(answers: Answer[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const answer of answers) counts[answer.status] = (counts[answer.status] ?? 0) + 1;
  return counts;
}

/** The value at `fraction` (0.95: the 95th percentile) of the numbers, by the nearest-rank method. */
export function percentile(values: number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(fraction * sorted.length) - 1)] ?? Number.NaN;
}
