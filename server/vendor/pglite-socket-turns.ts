import type { PGlite } from '@electric-sql/pglite';
import type { PGLiteSocketServer } from '@electric-sql/pglite-socket';

/*
 * PGlite is one session. pglite-socket 0.2.17 shares it between connections
 * message by message, keeping a connection's turn only inside an explicit
 * transaction; so two connections' extended-protocol messages (Parse, Bind,
 * Execute, Sync) interleave and fail with "bind message supplies 4 parameters"
 * or "portal does not exist" as soon as a pool runs queries in parallel.
 * This keeps the session with one connection from its first message until the
 * Sync or Query that ends its turn, and for the length of its transaction.
 * It replaces the server's private queue loop, so the package version is pinned.
 *
 * @fits @electric-sql/pglite-socket@0.2.17
 * Relies on: PGLiteSocketServer's private `queryQueue` (its `queue`, `processQueue`
 * and `clearTransactionIfNeeded`).
 * Guarded by: tests/db/model.test.ts (50 parallel creates) and every test run on
 * the embedded defaults, whose pools query in parallel.
 */

interface QueuedMessage {
  handlerId: number;
  message: Uint8Array;
  resolve(bytes: number): void;
  reject(error: unknown): void;
  onData(data: Uint8Array): void;
}

interface QueryQueue {
  queue: QueuedMessage[];
  processing: boolean;
  lastHandlerId: number | null;
  db: PGlite;
  processQueue(): Promise<void>;
  clearTransactionIfNeeded(handlerId: number): Promise<void>;
}

const SYNC = 0x53; // 'S'
const QUERY = 0x51; // 'Q'
const FUNCTION_CALL = 0x46; // 'F'
const TERMINATE = 0x58; // 'X'

/** Messages after which the server answers ReadyForQuery (the startup message has no type byte). */
function endsTurn(message: Uint8Array): boolean {
  const type = message[0];
  return type === SYNC || type === QUERY || type === FUNCTION_CALL || type === TERMINATE || type === 0;
}

export function serializeProtocolTurns(server: PGLiteSocketServer): void {
  const queue = (server as unknown as { queryQueue: QueryQueue }).queryQueue;
  let turnOwner: number | null = null;

  queue.processQueue = async function processQueue(this: QueryQueue) {
    if (this.processing) return;
    this.processing = true;
    try {
      while (this.queue.length > 0) {
        const owner = turnOwner ?? (this.db.isInTransaction() ? this.lastHandlerId : null);
        const index = owner === null ? 0 : this.queue.findIndex((item) => item.handlerId === owner);
        // The owner's next message has not arrived yet: everyone else waits for it.
        if (index === -1) break;
        const [item] = this.queue.splice(index, 1) as [QueuedMessage];
        let bytes = 0;
        try {
          await this.db.runExclusive(() =>
            this.db.execProtocolRawStream(item.message, {
              onRawData: (data: Uint8Array) => {
                bytes += data.length;
                item.onData(data);
              },
            }),
          );
        } catch (error) {
          turnOwner = null;
          item.reject(error);
          continue;
        }
        this.lastHandlerId = item.handlerId;
        turnOwner = endsTurn(item.message) ? null : item.handlerId;
        item.resolve(bytes);
      }
    } finally {
      this.processing = false;
    }
  }.bind(queue);

  const clearTransaction = queue.clearTransactionIfNeeded.bind(queue);
  queue.clearTransactionIfNeeded = async (handlerId: number) => {
    if (turnOwner === handlerId) turnOwner = null;
    await clearTransaction(handlerId);
    await queue.processQueue();
  };
}
