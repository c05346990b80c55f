import { ConnectionError, errorFor } from './errors.js';
import { VERSION } from './version.js';

export interface TaskApiOptions {
  /** An API key (`tk_…`), sent as `Authorization: Bearer`. */
  apiKey?: string;
  /** Or an OAuth access token of a connected app. */
  accessToken?: string;
  /** The API's root as the OpenAPI document's `servers` names it: `https://tasks.example.com/v1/public`. */
  baseUrl: string;
  /** Retries after a 429, a 502/503/504, a 409 that says when to retry, a failed connection or a timeout (default 3). */
  maxRetries?: number;
  /** Each attempt's limit in milliseconds, the answer's body included (default 80,000). */
  timeout?: number;
  /** A `Retry-After` longer than this many seconds is not waited for: the error is thrown at once (default 60). */
  maxRetryAfter?: number;
  /** Files larger than this many bytes go by the direct upload, smaller ones as multipart (default 4 MiB). */
  directUploadAbove?: number;
  /** The `fetch` to send requests with (default: the platform's). */
  fetch?: typeof fetch;
}

export interface RequestOptions {
  /** Sent as `If-Match`: the write applies only if the task still has this ETag (else PreconditionFailedError). */
  ifMatch?: string;
  /** Sent as `If-None-Match` on a read: NotModifiedError if the task still has this ETag. */
  ifNoneMatch?: string;
  /** The `Idempotency-Key` of a POST or PATCH; by default one is generated per call and reused by its retries. */
  idempotencyKey?: string;
  signal?: AbortSignal;
  timeout?: number;
  maxRetries?: number;
}

/** The answer a result came with, as Stripe's `lastResponse`. Header names are in lower case. */
export interface LastResponse {
  status: number;
  headers: Record<string, string>;
  requestId: string | undefined;
  idempotencyKey: string | undefined;
}

export interface RequestEvent {
  /** The operation's id in the OpenAPI document (`tasks-create`); absent for a direct upload's PUT. */
  operation: string | undefined;
  method: string;
  path: string;
  /** 0 for the first attempt, then 1, 2… for the retries. */
  attempt: number;
  idempotencyKey: string | undefined;
  /** Date.now() when the attempt was sent. */
  startedAt: number;
}

export interface ResponseEvent extends RequestEvent {
  /** Absent when no answer came. */
  status: number | undefined;
  requestId: string | undefined;
  /** The `Retry-After` of the answer, in seconds. */
  retryAfter: number | undefined;
  /** Why no answer came. */
  failure: string | undefined;
  /** Milliseconds the client waits before the next attempt; absent when it makes none. */
  retryIn: number | undefined;
  endedAt: number;
}

export interface Exchange {
  operation?: string;
  method: string;
  /** Under the API's root (`/web/tasks`), or an absolute URL that is not the API's (a direct upload's). */
  path: string;
  headers?: Record<string, string>;
  body?: string | FormData | Blob;
  /** A stream answer is handed over as the Response, its body unread. */
  read?: 'json' | 'stream';
}

type Outcome = { response: Response; text: string | undefined } | { failure: string; cause: unknown };

const INITIAL_DELAY_MS = 500;
const MAX_DELAY_MS = 8_000;
const RETRIED_STATUSES = new Set([429, 502, 503, 504]);

/**
 * Sends each request, retrying what is safe to retry: as stripe-node's RequestSender,
 * a POST or PATCH keeps one Idempotency-Key over all its attempts, so a retry whose
 * first attempt was processed gets the stored answer instead of acting twice; as
 * Octokit's throttling, a 429 pauses every request of the client until its Retry-After.
 */
export class Transport {
  readonly baseUrl: string;
  private readonly authorization: string;
  private readonly fetch: typeof fetch;
  private readonly maxRetries: number;
  private readonly timeout: number;
  private readonly maxRetryAfter: number;
  private pausedUntil = 0;
  private readonly listeners = { request: new Set<(event: RequestEvent) => void>(), response: new Set<(event: ResponseEvent) => void>() };

  constructor(options: TaskApiOptions) {
    const credential = options.apiKey ?? options.accessToken;
    if (!credential) throw new TypeError('TaskApi needs an apiKey or an accessToken');
    if (!options.baseUrl) throw new TypeError('TaskApi needs the baseUrl of the API, e.g. https://tasks.example.com/v1/public');
    this.baseUrl = apiRoot(options.baseUrl);
    this.authorization = `Bearer ${credential}`;
    this.fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.maxRetries = options.maxRetries ?? 3;
    this.timeout = options.timeout ?? 80_000;
    this.maxRetryAfter = options.maxRetryAfter ?? 60;
  }

  on<E extends keyof Transport['listeners']>(event: E, listener: Parameters<Transport['listeners'][E]['add']>[0]): void {
    (this.listeners[event] as Set<typeof listener>).add(listener);
  }

  off<E extends keyof Transport['listeners']>(event: E, listener: Parameters<Transport['listeners'][E]['add']>[0]): void {
    (this.listeners[event] as Set<typeof listener>).delete(listener);
  }

  /** Sends a request to the API with the credential; resolves with the parsed body and its answer, or the Response of a stream. */
  async send(exchange: Exchange, options: RequestOptions = {}): Promise<{ body: unknown; lastResponse: LastResponse } | Response> {
    const external = /^https?:/.test(exchange.path);
    const idempotencyKey =
      !external && (exchange.method === 'POST' || exchange.method === 'PATCH') ? (options.idempotencyKey ?? randomUuid()) : undefined;
    const headers: Record<string, string> = { ...exchange.headers };
    if (!external) {
      headers.authorization = this.authorization;
      headers.accept ??= 'application/json';
      if (isNode()) headers['user-agent'] = `task-api-client/${VERSION} node/${process.versions.node}`;
    }
    if (idempotencyKey) headers['idempotency-key'] = idempotencyKey;
    if (options.ifMatch) headers['if-match'] = options.ifMatch;
    if (options.ifNoneMatch) headers['if-none-match'] = options.ifNoneMatch;
    const url = external ? exchange.path : this.baseUrl + exchange.path;
    // A direct upload's URL carries its signature: events and errors name it without.
    const shown = external ? url.split('?')[0]! : exchange.path;
    const maxRetries = options.maxRetries ?? this.maxRetries;

    for (let attempt = 0; ; attempt++) {
      if (!external) await sleepUntil(() => this.pausedUntil, options.signal);
      const sent: RequestEvent = {
        operation: exchange.operation,
        method: exchange.method,
        path: shown,
        attempt,
        idempotencyKey,
        startedAt: Date.now(),
      };
      for (const listener of this.listeners.request) listener(sent);
      const outcome = await this.attempt(url, exchange, headers, options);
      const retryAfter = 'response' in outcome ? parseRetryAfter(outcome.response.headers.get('retry-after')) : undefined;
      const retryIn = attempt < maxRetries ? this.retryDelay(outcome, retryAfter, attempt) : undefined;
      const received: ResponseEvent = {
        ...sent,
        status: 'response' in outcome ? outcome.response.status : undefined,
        requestId: 'response' in outcome ? (outcome.response.headers.get('x-request-id') ?? undefined) : undefined,
        retryAfter,
        failure: 'failure' in outcome ? outcome.failure : undefined,
        retryIn,
        endedAt: Date.now(),
      };
      for (const listener of this.listeners.response) listener(received);
      if (retryIn !== undefined) {
        const until = received.endedAt + retryIn;
        if ('response' in outcome && outcome.response.status === 429) this.pausedUntil = Math.max(this.pausedUntil, until);
        await sleepUntil(() => until, options.signal);
        continue;
      }
      return settle(outcome, { method: exchange.method, path: shown }, idempotencyKey, retryAfter, attempt);
    }
  }

  private async attempt(url: string, exchange: Exchange, headers: Record<string, string>, options: RequestOptions): Promise<Outcome> {
    const limit = options.timeout ?? this.timeout;
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(), limit);
    const signal = options.signal ? AbortSignal.any([options.signal, deadline.signal]) : deadline.signal;
    try {
      const response = await this.fetch(url, { method: exchange.method, headers, body: exchange.body, signal });
      // A stream's reader may take longer than an attempt: the limit is on its head.
      if (exchange.read === 'stream' && response.ok) return { response, text: undefined };
      return { response, text: await response.text() };
    } catch (error) {
      if (options.signal?.aborted) throw options.signal.reason;
      return { failure: deadline.signal.aborted ? `no answer within ${limit} ms` : describe(error), cause: error };
    } finally {
      clearTimeout(timer);
    }
  }

  /** How long to wait before the next attempt, or undefined when the outcome is final. */
  private retryDelay(outcome: Outcome, retryAfter: number | undefined, attempt: number): number | undefined {
    if ('response' in outcome) {
      const { status } = outcome.response;
      // A 409 with Retry-After: a request with the same Idempotency-Key is still being processed.
      const retried = RETRIED_STATUSES.has(status) || (status === 409 && retryAfter !== undefined);
      if (!retried) return undefined;
      if (retryAfter !== undefined) return retryAfter <= this.maxRetryAfter ? retryAfter * 1000 : undefined;
    }
    // Exponential backoff with jitter, as stripe-node's: half to all of 0.5 s, 1 s, 2 s… up to 8 s.
    const ceiling = Math.min(INITIAL_DELAY_MS * 2 ** attempt, MAX_DELAY_MS);
    return Math.max(INITIAL_DELAY_MS, ceiling * (0.5 + Math.random() / 2));
  }
}

function settle(
  outcome: Outcome,
  where: { method: string; path: string },
  idempotencyKey: string | undefined,
  retryAfter: number | undefined,
  attempts: number,
): { body: unknown; lastResponse: LastResponse } | Response {
  if ('failure' in outcome) {
    const tries = attempts === 0 ? '' : ` (${attempts + 1} attempts)`;
    throw new ConnectionError({ message: `No answer from the API: ${outcome.failure}${tries}`, cause: outcome.cause, ...where });
  }
  const { response, text } = outcome;
  if (text === undefined) return response;
  const headers = Object.fromEntries(response.headers);
  const requestId = headers['x-request-id'];
  const body = parseJson(text);
  if (response.ok) return { body, lastResponse: { status: response.status, headers, requestId, idempotencyKey } };
  const message =
    typeof (body as { message?: unknown })?.message === 'string'
      ? (body as { message: string }).message
      : `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
  throw errorFor({ statusCode: response.status, message, requestId, headers, retryAfter, ...where });
}

function parseJson(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** `Retry-After` as seconds: a whole number, or an HTTP date. */
function parseRetryAfter(value: string | null): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

/** Waits until the time `deadline` gives (read again on waking: another request may have moved it), or the signal aborts. */
async function sleepUntil(deadline: () => number, signal: AbortSignal | undefined): Promise<void> {
  for (let left = deadline() - Date.now(); left > 0; left = deadline() - Date.now()) {
    signal?.throwIfAborted();
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(done, left);
      signal?.addEventListener('abort', abort, { once: true });
      function done() {
        signal?.removeEventListener('abort', abort);
        resolve();
      }
      function abort() {
        clearTimeout(timer);
        reject(signal!.reason);
      }
    });
  }
  signal?.throwIfAborted();
}

/** Node's fetch says "fetch failed" and keeps the reason (ECONNRESET, ECONNREFUSED…) in its cause. */
function describe(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}

/** A version 4 UUID; from getRandomValues where randomUUID is missing (a page served over plain http has no randomUUID). */
function randomUuid(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function isNode(): boolean {
  return typeof process !== 'undefined' && typeof process.versions?.node === 'string';
}

/** The API's root without a trailing slash; an origin alone (`http://localhost:3000`) means its `/v1/public`. */
function apiRoot(baseUrl: string): string {
  const url = new URL(baseUrl);
  if (url.pathname === '/' || url.pathname === '') url.pathname = '/v1/public';
  return url.href.replace(/\/+$/, '');
}
