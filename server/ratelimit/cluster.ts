import cluster from 'node:cluster';
import { randomUUID } from 'node:crypto';
import type { Limiter, RateLimitDecision } from './limiter';
import { createMemorySlidingWindow } from './memory';

/**
 * The in-memory limiter under `npm start`, where several server processes
 * (node:cluster workers, server/launch/supervisor.ts) share one port: counting in
 * each would let every key through once per process. The counts live in the
 * cluster's primary and the workers ask it over the cluster's IPC channel.
 * With one server process (WEB_CONCURRENCY=1) it counts for itself: the question
 * over IPC cost it an eighth of its throughput (tests/bench/profile-notes.md), and
 * the supervisor starts a replacement only once a process has exited, so no two
 * count at once; a replaced process starts its windows empty.
 */

const ASK = 'taskapi:ratelimit:ask';
const ANSWER = 'taskapi:ratelimit:answer';

interface Ask {
  type: typeof ASK;
  id: string;
  name: string;
  tokens: number;
  windowMs: number;
  identifier: string;
}

interface Answer {
  type: typeof ANSWER;
  id: string;
  decision: RateLimitDecision;
}

/** Whether this process is one of several workers, whose primary keeps the in-memory limits. */
export const countsInPrimary = (workers: number) => cluster.isWorker && workers > 1;

/** In the cluster's primary: one set of sliding windows answering every worker. */
export function serveLimitsToWorkers(): void {
  const limiters = new Map<string, Limiter>();
  cluster.on('message', (worker, message: unknown) => {
    if (!isMessage<Ask>(message, ASK)) return;
    const key = `${message.name}:${message.tokens}:${message.windowMs}`;
    let limiter = limiters.get(key);
    if (!limiter) {
      limiter = createMemorySlidingWindow(message.tokens, message.windowMs);
      limiters.set(key, limiter);
    }
    void limiter.limit(message.identifier).then((decision) => {
      if (worker.isConnected()) worker.send({ type: ANSWER, id: message.id, decision } satisfies Answer);
    });
  });
}

// Next's bundle of the route and the server's own modules may each load this file:
// an id names the copy that asked, so neither takes the other's answer.
const origin = randomUUID();
let sequence = 0;
const waiting = new Map<string, (decision: RateLimitDecision) => void>();
let listening = false;

/** In a worker: the primary's limiter `name`; rejects when no answer comes within `timeoutMs`. */
export function askPrimary(name: string, tokens: number, windowMs: number, timeoutMs: number): Limiter {
  if (!listening) {
    listening = true;
    process.on('message', (message: unknown) => {
      if (isMessage<Answer>(message, ANSWER)) waiting.get(message.id)?.(message.decision);
    });
  }
  return {
    limit(identifier) {
      return new Promise((resolve, reject) => {
        const id = `${origin}:${++sequence}`;
        const fail = (error: Error) => {
          waiting.delete(id);
          clearTimeout(timer);
          reject(error);
        };
        const timer = setTimeout(() => fail(new Error('rate limit store timed out')), timeoutMs);
        waiting.set(id, (decision) => {
          waiting.delete(id);
          clearTimeout(timer);
          resolve(decision);
        });
        const ask: Ask = { type: ASK, id, name, tokens, windowMs, identifier };
        process.send!(ask, undefined, undefined, (error) => {
          if (error) fail(error);
        });
      });
    },
  };
}

function isMessage<T extends Ask | Answer>(message: unknown, type: T['type']): message is T {
  return typeof message === 'object' && message !== null && (message as { type?: unknown }).type === type;
}
