import type { AnswerMemory } from '../api/answer-memory';
import { ANSWERS_TOO_LARGE, ANSWERS_TOO_LARGE_MIB, BODY_DEADLINE_S, SERVICE_UNAVAILABLE, UPLOAD_DEADLINE_S } from '../api/messages';
import { AppError } from '../errors';
import { bodyChunks, readWholeBody } from './body';
import { createMemoryBudget, type Holding } from './memory-budget';

/**
 * Bytes that request bodies being read or held may take at once, per process,
 * and bytes of answer text being built or written. Past them a request waits its
 * turn, then answers 503 rather than taking the process down: the production heap
 * is capped (server/launch/server-process.ts).
 */
const bodies = createMemoryBudget(32 * 1024 * 1024);
const answers = createMemoryBudget(ANSWERS_TOO_LARGE_MIB * 1024 * 1024);
/** Answers whose text holds less than this in all are built without waiting. */
const SMALL_ANSWER_BYTES = 1024 * 1024;
const ANSWER_WAIT_MS = 10_000;
// The answer's reader is the server writing it to the socket; should nothing ever
// read it (a client gone before the first byte), its share is given back after this.
const UNREAD_ANSWER_MS = 5 * 60_000;

type RouteHandler = (req: Request) => Promise<Response>;

/**
 * One request and its answer, from the first byte of the body in to the last
 * byte of the answer out: what it reads and builds is counted in the process's
 * budgets, and held until the answer has been read out to the client.
 */
export interface Exchange {
  /** The whole body, within `limit` bytes and the body deadline (413, 408, 503). */
  readBody(req: Request, limit: number, tooLarge?: string): Promise<Buffer>;
  /** The body's chunks as they come, for a file streamed on to storage (upload deadline). */
  streamBody(req: Request, limit: number, errors: { tooLarge: () => Error; cutShort: () => Error }): AsyncGenerator<Uint8Array>;
  /**
   * Answer memory for the procedure calls of this request, each byte of their text
   * counted `copies` times: the rows read hold it once, the answer's JSON once more
   * (REST's two), and a transport that copies it again counts those copies too.
   */
  answerMemory(copies?: number): AnswerMemory;
}

class OpenExchange implements Exchange {
  private readonly body: Holding = bodies.holding();
  private readonly answer: Holding = answers.holding();
  private answerText = 0;
  private readonly arrived = Date.now();

  readBody(req: Request, limit: number, tooLarge?: string): Promise<Buffer> {
    return readWholeBody(req, limit, { holding: this.body, deadline: this.arrived + BODY_DEADLINE_S * 1000 }, tooLarge);
  }

  streamBody(req: Request, limit: number, errors: { tooLarge: () => Error; cutShort: () => Error }) {
    return bodyChunks(req.body, limit, { holding: this.body, deadline: this.arrived + UPLOAD_DEADLINE_S * 1000 }, errors, false);
  }

  answerMemory(copies = 2): AnswerMemory {
    return { reserve: (textBytes) => this.reserveAnswer(textBytes * copies) };
  }

  private async reserveAnswer(bytes: number): Promise<void> {
    this.answerText += bytes;
    if (this.answerText < SMALL_ANSWER_BYTES) return;
    // Waiting would be for itself: what this request holds is given back only once it has answered.
    if (this.answer.held > 0 && this.answer.held + bytes > answers.capacity) throw new AppError('payload_too_large', ANSWERS_TOO_LARGE);
    if (!(await this.answer.reserve(bytes, ANSWER_WAIT_MS))) throw new AppError('unavailable', SERVICE_UNAVAILABLE);
  }

  get holds(): boolean {
    return this.body.held > 0 || this.answer.held > 0;
  }

  release(): void {
    this.body.release();
    this.answer.release();
  }

  /** The answer, whose body gives the exchange's share back once it has been read to its end, or given up. */
  finish(response: Response): Response {
    if (!this.holds || !response.body) {
      this.release();
      return response;
    }
    const reader = response.body.getReader();
    const timer = setTimeout(() => this.release(), UNREAD_ANSWER_MS);
    timer.unref();
    const done = () => {
      clearTimeout(timer);
      this.release();
    };
    const body = new ReadableStream<Uint8Array>(
      {
        async pull(controller) {
          try {
            const chunk = await reader.read();
            if (chunk.done) {
              done();
              controller.close();
            } else {
              controller.enqueue(chunk.value);
            }
          } catch (error) {
            done();
            controller.error(error);
          }
        },
        cancel(reason) {
          done();
          return reader.cancel(reason);
        },
      },
      { highWaterMark: 0 },
    );
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  }
}

const BOUNDED = Symbol('bounded route');

/**
 * The one way a route reads its body and writes its answer: every route file's
 * handlers are built with it (tests/api/routes.test.ts checks), so what a request
 * reads and builds is bounded in memory and time, whatever its transport.
 */
export function boundedRoute(handler: (req: Request, exchange: Exchange) => Promise<Response>): RouteHandler {
  const route: RouteHandler = async (req) => {
    const exchange = new OpenExchange();
    let response: Response;
    try {
      response = await handler(req, exchange);
    } catch (error) {
      exchange.release();
      throw error;
    }
    return exchange.finish(response);
  };
  return Object.assign(route, { [BOUNDED]: true });
}

/** A wrapper around a bounded route, which only adds work around it, is bounded too. */
export function aroundBoundedRoute(inner: RouteHandler, outer: RouteHandler): RouteHandler {
  return isBoundedRoute(inner) ? Object.assign(outer, { [BOUNDED]: true }) : outer;
}

export function isBoundedRoute(handler: unknown): boolean {
  return typeof handler === 'function' && BOUNDED in handler;
}
