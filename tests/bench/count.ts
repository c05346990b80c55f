import { sendSequentially } from './load';
import type { StatementCounter } from '../support/pg-counter';
import type { Scenario } from './scenarios';

const WARMUP_REQUESTS = 3;
const COUNTED_REQUESTS = 20;

/**
 * Statements per request of a scenario, one request at a time through the
 * counting proxy. The warm-up absorbs one-off work (pool connections, the
 * key's once-a-minute last-used write), so what remains is the steady cost.
 */
export async function countStatements(
  baseUrl: string,
  scenario: Scenario,
  apiKey: string,
  counter: StatementCounter,
): Promise<{ perRequest: number; statements: string[] }> {
  await sendSequentially(baseUrl, scenario, apiKey, WARMUP_REQUESTS);
  counter.take();
  await sendSequentially(baseUrl, scenario, apiKey, COUNTED_REQUESTS - 1);
  const before = counter.take().length;
  await sendSequentially(baseUrl, scenario, apiKey, 1);
  const statements = counter.take();
  return { perRequest: (before + statements.length) / COUNTED_REQUESTS, statements };
}
