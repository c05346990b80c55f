import { sendSequentially } from './load';
import type { SentStatement, StatementCounter } from '../support/pg-counter';
import type { Scenario } from './scenarios';

const WARMUP_REQUESTS = 3;
const COUNTED_REQUESTS = 20;
const MAX_CAPTURES = 6;

/**
 * Statements per request of a scenario, one request at a time through the
 * counting proxy: the number most of the counted requests sent. The warm-up
 * absorbs one-off work (pool connections, the key's once-a-minute last-used
 * write), and a last-used write that falls due while the requests are counted
 * adds to one request only, so what remains is the steady cost.
 */
export async function countStatements(baseUrl: string, scenario: Scenario, apiKey: string, counter: StatementCounter): Promise<number> {
  await sendSequentially(baseUrl, scenario, apiKey, WARMUP_REQUESTS);
  const requestsSending = new Map<number, number>();
  for (let i = 0; i < COUNTED_REQUESTS; i++) {
    counter.take();
    await sendSequentially(baseUrl, scenario, apiKey, 1);
    const sent = counter.take().length;
    requestsSending.set(sent, (requestsSending.get(sent) ?? 0) + 1);
  }
  return [...requestsSending].sort(([, a], [, b]) => b - a)[0]![0];
}

/** One request of the scenario, its path and body drawn once: sent again, it is the same request. */
export function fixedRequest(scenario: Scenario): Scenario {
  const path = scenario.path();
  const body = scenario.body?.();
  return { ...scenario, path: () => path, body: body === undefined ? undefined : () => body };
}

/**
 * What `request` sends to the database, captured request by request until two
 * in a row send the same statements (their text): work that is not the
 * request's own, such as the key's last-used write started by an earlier one,
 * falls in one capture only. Returns those two, for statementDifference.
 */
export async function steadyStatements(
  baseUrl: string,
  request: Scenario,
  apiKey: string,
  counter: StatementCounter,
): Promise<[SentStatement[], SentStatement[]]> {
  const capture = async () => {
    counter.take();
    await sendSequentially(baseUrl, request, apiKey, 1);
    return counter.take();
  };
  let previous = await capture();
  for (let i = 1; i < MAX_CAPTURES; i++) {
    const next = await capture();
    if (next.length === previous.length && next.every((statement, j) => statement.text === previous[j]!.text)) return [previous, next];
    previous = next;
  }
  throw new Error(`${request.name}: no two of ${MAX_CAPTURES} requests in a row sent the same statements to ${baseUrl}`);
}

const LOGGED_REQUESTS = 1_000;
// A server process writes its request log once a second (server/request-log/flush.ts): the last batch is written by then.
const LAST_FLUSH_MS = 1_500;

/**
 * The request log's own statements per 1,000 requests of the scenario sent one
 * after another: its flushes, written after answers, each a batch of records. One
 * connection is its worst case, the fewest requests to a flush.
 */
export async function requestLogStatements(
  baseUrl: string,
  scenario: Scenario,
  apiKey: string,
  counter: StatementCounter,
): Promise<number> {
  counter.take();
  await sendSequentially(baseUrl, scenario, apiKey, LOGGED_REQUESTS);
  await new Promise((resolve) => setTimeout(resolve, LAST_FLUSH_MS));
  return (counter.take().filter((statement) => statement.text.includes('request_log.')).length * 1_000) / LOGGED_REQUESTS;
}
