import { AppError } from '../errors';
import { BODY_TOO_LARGE, BODY_TOO_SLOW, SERVICE_UNAVAILABLE } from '../api/messages';
import type { Holding } from './memory-budget';

// A body held as bytes, then as text (UTF-16 may take twice its bytes), then parsed.
const HELD_PER_BYTE = 4;
/** How long a body may wait for room in the budget before its request answers 503. */
export const BUDGET_WAIT_MS = 5_000;

export interface BodyRead {
  /** The exchange's share of the body budget: it holds what has arrived, and what parsing it will take. */
  holding: Holding;
  /** When the whole body must have arrived (ms since the epoch); past it the request answers 408. */
  deadline: number;
}

/**
 * Reads a request's body whole, refusing it (413, with `tooLarge`) as soon as it
 * passes `limit` bytes: announced by Content-Length, or seen while it streams in,
 * never buffered past the limit. Each chunk is reserved in the body budget as it
 * arrives, so a body that comes slowly holds only what it has sent; the room its
 * parsing takes is reserved once it is complete.
 */
export async function readWholeBody(req: Request, limit: number, read: BodyRead, tooLarge = BODY_TOO_LARGE): Promise<Buffer> {
  const declared = Number(req.headers.get('content-length') ?? Number.NaN);
  if (declared > limit) throw new AppError('payload_too_large', tooLarge);
  if (!req.body) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of bodyChunks(req.body, limit, read, { tooLarge: () => new AppError('payload_too_large', tooLarge) })) {
    size += chunk.byteLength;
    chunks.push(chunk);
  }
  await hold(read.holding, size * (HELD_PER_BYTE - 1));
  return Buffer.concat(chunks, size);
}

/**
 * A body's chunks as they come, never more than one held: `tooLarge()` is thrown
 * once they pass `limit` bytes in all, `cutShort()` when the body breaks off, 408
 * past the deadline. Each chunk holds its bytes in the budget until the next one
 * is asked for. Past the limit or the deadline it stops reading without cancelling
 * the body, which the server drains after answering (server/http/linger.ts).
 */
export async function* bodyChunks(
  body: ReadableStream<Uint8Array> | null,
  limit: number,
  read: BodyRead,
  errors: { tooLarge: () => Error; cutShort?: () => Error },
  keep = true,
): AsyncGenerator<Uint8Array> {
  if (!body) return;
  const reader = body.getReader();
  const late = lateAfter(read.deadline);
  let total = 0;
  try {
    for (;;) {
      const chunk = await Promise.race([
        reader.read().catch(() => {
          throw errors.cutShort?.() ?? new AppError('bad_request', 'Request body ended before it was complete');
        }),
        late.promise,
      ]);
      if (chunk.done) return;
      total += chunk.value.byteLength;
      if (total > limit) throw errors.tooLarge();
      await hold(read.holding, chunk.value.byteLength);
      yield chunk.value;
      if (!keep) read.holding.giveBack(chunk.value.byteLength);
    }
  } finally {
    late.cancel();
    reader.releaseLock();
  }
}

async function hold(holding: Holding, bytes: number): Promise<void> {
  if (!(await holding.reserve(bytes, BUDGET_WAIT_MS))) throw new AppError('unavailable', SERVICE_UNAVAILABLE);
}

/** A promise that rejects with 408 at `deadline`, and its timer's cancel. */
function lateAfter(deadline: number): { promise: Promise<never>; cancel(): void } {
  let timer: NodeJS.Timeout | undefined;
  const promise = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new AppError('request_timeout', BODY_TOO_SLOW)), Math.max(0, deadline - Date.now()));
  });
  // Nobody may be listening when it fires: the read it raced has won.
  promise.catch(() => {});
  return { promise, cancel: () => clearTimeout(timer) };
}
