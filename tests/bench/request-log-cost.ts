import type { LoadResult } from './load';
import type { Scenario } from './scenarios';
import type { RunningServer } from './server';

/** One scenario at one concurrency against a server that records every request and one that keeps no log. */
export interface RequestLogCost {
  scenario: string;
  connections: number;
  withLog: LoadResult;
  withoutLog: LoadResult;
}

/** Issue #34: the log may cost the p50 of a get or a list at most 5%. */
export const MAX_LOG_P50_RATIO = 1.05;

/**
 * The request log's cost on the request path, for each scenario and concurrency:
 * the same server with the log and with REQUEST_LOG_RETENTION_DAYS=0, each warmed by
 * a turn not counted, then measured in turns (with, without, without, with) so that
 * the machine's drift in the meantime falls on both alike. Each side's figures are
 * the mean of its two turns.
 */
export async function measureRequestLogCost(options: {
  scenarios: Scenario[];
  connections: number[];
  startServer: (env: Record<string, string>) => Promise<RunningServer>;
  measure: (url: string, scenario: Scenario, connections: number) => Promise<LoadResult>;
  log: (line: string) => void;
}): Promise<RequestLogCost[]> {
  const withLog = await options.startServer({});
  try {
    const withoutLog = await options.startServer({ REQUEST_LOG_RETENTION_DAYS: '0' });
    try {
      const costs: RequestLogCost[] = [];
      for (const scenario of options.scenarios) {
        for (const connections of options.connections) {
          // A turn on each server first, not counted: a server's first requests of a scenario run
          // colder code (a list's CPU per request fell by a third over its first four turns), which
          // taking turns in order does not cancel, and the first turn fell to the log's side.
          for (const server of [withoutLog, withLog]) await options.measure(server.url, scenario, connections);
          const turns = [withLog, withoutLog, withoutLog, withLog];
          const results: LoadResult[] = [];
          for (const server of turns) results.push(await options.measure(server.url, scenario, connections));
          const cost = {
            scenario: scenario.name,
            connections,
            withLog: meanOf(results[0]!, results[3]!),
            withoutLog: meanOf(results[1]!, results[2]!),
          };
          costs.push(cost);
          options.log(
            `request log ${scenario.name} c=${connections}: p50 ${cost.withLog.p50} ms with, ${cost.withoutLog.p50} ms without; ` +
              `mean ${cost.withLog.mean.toFixed(2)} / ${cost.withoutLog.mean.toFixed(2)} ms`,
          );
        }
      }
      return costs;
    } finally {
      await withoutLog.stop();
    }
  } finally {
    await withLog.stop();
  }
}

function meanOf(a: LoadResult, b: LoadResult): LoadResult {
  const mean = (read: (result: LoadResult) => number) => (read(a) + read(b)) / 2;
  return {
    requestsPerSecond: mean((r) => r.requestsPerSecond),
    p50: mean((r) => r.p50),
    mean: mean((r) => r.mean),
    p97_5: mean((r) => r.p97_5),
    p99: mean((r) => r.p99),
    requests: a.requests + b.requests,
    non2xx: a.non2xx + b.non2xx,
    errors: a.errors + b.errors,
  };
}
