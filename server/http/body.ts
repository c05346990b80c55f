import { BODY_TOO_LARGE, SERVICE_UNAVAILABLE } from '../api/messages';
import { AppError } from '../errors';
import { createMemoryBudget } from '../api/memory-budget';

/**
 * Bytes that request bodies being read or held may take at once, per process.
 * Past it a request waits its turn, then answers 503 rather than taking the
 * process down: the production heap is capped (server/launch/server-process.ts).
 */
const BODY_BUDGET_BYTES = 32 * 1024 * 1024;
// A body held as bytes, then as text (UTF-16 may take twice its bytes), then parsed.
const HELD_PER_BYTE = 4;
const BUDGET_WAIT_MS = 5_000;

const budget = createMemoryBudget(BODY_BUDGET_BYTES);

export interface HeldBody {
  bytes: Buffer;
  /** Gives the body's share of the budget back; call it once the request is answered. */
  release(): void;
}

/**
 * Reads a request's body whole, refusing it (413) as soon as it passes `limit`
 * bytes: announced by Content-Length, or seen while it streams in, never buffered
 * past the limit. What it may hold is reserved first from the process's body budget.
 */
export async function readLimitedBody(req: Request, limit: number): Promise<HeldBody> {
  const declared = Number(req.headers.get('content-length') ?? Number.NaN);
  if (declared > limit) throw new AppError('payload_too_large', BODY_TOO_LARGE);
  if (!req.body) return { bytes: Buffer.alloc(0), release: () => {} };
  const expected = Number.isInteger(declared) && declared >= 0 ? declared : limit;
  const release = await budget.reserve(expected * HELD_PER_BYTE, BUDGET_WAIT_MS);
  if (!release) throw new AppError('unavailable', SERVICE_UNAVAILABLE);
  try {
    return { bytes: await readUpTo(req.body, limit), release };
  } catch (error) {
    release();
    throw error;
  }
}

// A streamed body (an upload) holds only what is in flight between the socket and its store.
const STREAMED_BODY_BYTES = 1024 * 1024;

/** Reserves a streamed body's share of the budget; call the function it resolves with once the request is answered. */
export async function holdStreamedBody(): Promise<() => void> {
  const release = await budget.reserve(STREAMED_BODY_BYTES, BUDGET_WAIT_MS);
  if (!release) throw new AppError('unavailable', SERVICE_UNAVAILABLE);
  return release;
}

async function readUpTo(body: ReadableStream<Uint8Array>, limit: number): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = body.getReader();
  for (;;) {
    let chunk: ReadableStreamReadResult<Uint8Array>;
    try {
      chunk = await reader.read();
    } catch {
      throw new AppError('bad_request', 'Request body ended before it was complete');
    }
    if (chunk.done) break;
    size += chunk.value.byteLength;
    // Stop reading, but do not cancel: the rest is drained by the server before it
    // closes the connection, so the client can read the 413 (server/http/linger.ts).
    if (size > limit) {
      reader.releaseLock();
      throw new AppError('payload_too_large', BODY_TOO_LARGE);
    }
    chunks.push(chunk.value);
  }
  return Buffer.concat(chunks);
}

/**
 * A streamed body's chunks as they come, never more than one held: `tooLarge()`
 * is thrown once they pass `limit` bytes in all, `cutShort()` when the body breaks
 * off. Past the limit it stops reading without cancelling the body, which the
 * server drains after answering (server/http/linger.ts).
 */
export async function* cappedChunks(
  body: ReadableStream<Uint8Array> | null,
  limit: number,
  errors: { tooLarge: () => Error; cutShort: () => Error },
): AsyncGenerator<Uint8Array> {
  if (!body) return;
  const reader = body.getReader();
  let total = 0;
  for (;;) {
    let chunk: ReadableStreamReadResult<Uint8Array>;
    try {
      chunk = await reader.read();
    } catch {
      throw errors.cutShort();
    }
    if (chunk.done) return;
    total += chunk.value.byteLength;
    if (total > limit) {
      reader.releaseLock();
      throw errors.tooLarge();
    }
    yield chunk.value;
  }
}
