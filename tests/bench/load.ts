import autocannon from 'autocannon';
import type { Scenario } from './scenarios';

export interface LoadResult {
  requestsPerSecond: number;
  /** Latency in milliseconds. */
  p50: number;
  /** autocannon's p50 is whole milliseconds; the mean shows what a fraction of one moves. */
  mean: number;
  p97_5: number;
  p99: number;
  requests: number;
  non2xx: number;
  /** Connection errors and timeouts. */
  errors: number;
}

function requestHeaders(scenario: Scenario, apiKey: string): Record<string, string> {
  const headers: Record<string, string> = { authorization: `Bearer ${apiKey}` };
  if (scenario.contentType) headers['content-type'] = scenario.contentType;
  return headers;
}

/** Drives one scenario at a fixed concurrency for a fixed time with autocannon. */
export async function drive(
  baseUrl: string,
  scenario: Scenario,
  apiKey: string,
  connections: number,
  seconds: number,
): Promise<LoadResult> {
  const result = await autocannon({
    url: baseUrl,
    connections,
    duration: seconds,
    timeout: 30,
    headers: requestHeaders(scenario, apiKey),
    requests: [
      {
        method: scenario.method,
        setupRequest: (request) => ({ ...request, path: scenario.path(), body: scenario.body?.() }),
      },
    ],
  });
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    mean: result.latency.mean,
    p97_5: result.latency.p97_5,
    p99: result.latency.p99,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

/** Sends `count` requests one after another; throws on the first that fails, with its answer. */
export async function sendSequentially(baseUrl: string, scenario: Scenario, apiKey: string, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const response = await fetch(baseUrl + scenario.path(), {
      method: scenario.method,
      headers: requestHeaders(scenario, apiKey),
      body: scenario.body?.(),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${scenario.name}: ${response.status} ${text.slice(0, 300)}`);
  }
}
