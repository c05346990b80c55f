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
 *
 * In one session a NOTIFY reaches only the connection that sent it: the session
 * listens, but its notification comes back in the sender's answer. graphile-worker's
 * LISTEN connection then never hears of a new job and finds it only at its next poll,
 * seconds later. So the LISTENs each connection sends are tracked, and every
 * NotificationResponse in an answer is also sent to the other connections listening
 * on its channel, between their turns, as a server would send it.
 *
 * It replaces the server's private queue loop, so the package version is pinned.
 *
 * @fits @electric-sql/pglite-socket@0.2.17
 * Relies on: PGLiteSocketServer's private `queryQueue` (its `queue`, `processQueue`
 * and `clearTransactionIfNeeded`) and `handlers` (each with `handlerId` and `socket`).
 * Guarded by: tests/db/model.test.ts (50 parallel creates), tests/db/embedded.test.ts
 * (a NOTIFY heard on another connection) and every test run on the embedded
 * defaults, whose pools query in parallel and whose webhooks wait on NOTIFY.
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
const NOTIFICATION = 0x41; // 'A'
const FUNCTION_CALL = 0x46; // 'F'
const TERMINATE = 0x58; // 'X'

/** Messages after which the server answers ReadyForQuery (the startup message has no type byte). */
function endsTurn(message: Uint8Array): boolean {
  const type = message[0];
  return type === SYNC || type === QUERY || type === FUNCTION_CALL || type === TERMINATE || type === 0;
}

interface Handler {
  handlerId: number;
  socket: { writable: boolean; write(data: Uint8Array): boolean } | null;
}

/** The channels a simple query starts or stops listening on; `*` stands for all (DISCARD ALL stops them all too). */
function listenChanges(sql: string): { listen: boolean; channel: string }[] {
  return [...sql.matchAll(/\b(UNLISTEN|LISTEN)\s+(\*|"(?:[^"]|"")+"|[A-Za-z_][\w$]*)|\b(DISCARD)\s+ALL\b/gi)].map(
    ([, verb, name, discard]) => ({
      listen: !discard && verb!.toUpperCase() === 'LISTEN',
      channel: discard || name === '*' ? '*' : name!.startsWith('"') ? name!.slice(1, -1).replaceAll('""', '"') : name!.toLowerCase(),
    }),
  );
}

const quoted = (channel: string) => `"${channel.replaceAll('"', '""')}"`;

/** A NotificationResponse's channel: after the sender's process id, a C string. */
function notificationChannel(message: Uint8Array): string {
  const end = message.indexOf(0, 9);
  return Buffer.from(message.subarray(9, end)).toString('utf8');
}

/**
 * Who listens on what, and an answer's notifications sent on to the other listeners.
 * An answer's bytes may come in pieces that split a message.
 */
function notificationRouter(server: PGLiteSocketServer) {
  const listening = new Map<number, Set<string>>();
  const handlers = () => [...(server as unknown as { handlers: Set<Handler> }).handlers];

  const send = (sender: number, notification: Uint8Array) => {
    const channel = notificationChannel(notification);
    const connected = handlers();
    for (const handler of connected) {
      if (handler.handlerId === sender || !listening.get(handler.handlerId)?.has(channel)) continue;
      if (handler.socket?.writable) handler.socket.write(notification);
    }
    for (const handlerId of listening.keys()) {
      if (!connected.some((handler) => handler.handlerId === handlerId)) listening.delete(handlerId);
    }
  };

  return {
    /**
     * Notes a query's LISTENs and UNLISTENs. One connection's UNLISTEN stops the session
     * listening for all of them: the answer is the statement that listens again on what
     * the others still listen on, to run after it.
     */
    track(handlerId: number, message: Uint8Array): string | null {
      if (message[0] !== QUERY) return null;
      const changes = listenChanges(Buffer.from(message.subarray(5)).toString('utf8'));
      if (changes.length === 0) return null;
      const channels = listening.get(handlerId) ?? new Set<string>();
      for (const { listen, channel } of changes) {
        if (listen) channels.add(channel);
        else if (channel === '*') channels.clear();
        else channels.delete(channel);
      }
      listening.set(handlerId, channels);
      if (changes.every((change) => change.listen)) return null;
      const wanted = new Set([...listening.values()].flatMap((listened) => [...listened]));
      return wanted.size > 0 ? [...wanted].map((channel) => `LISTEN ${quoted(channel)}`).join('; ') : null;
    },
    /** A reader of one answer, or none when no other connection listens. */
    reader(sender: number): ((data: Uint8Array) => void) | null {
      if (![...listening].some(([handlerId, channels]) => handlerId !== sender && channels.size > 0)) return null;
      // What is left of a message that is no notification, passed over as it comes; and
      // a message head, or a notification, that the piece ended in, kept for the next.
      let skip = 0;
      let pending: Uint8Array | null = null;
      return (data) => {
        const bytes = pending ? Buffer.concat([pending, data]) : data;
        pending = null;
        let at = Math.min(skip, bytes.length);
        skip -= at;
        while (at < bytes.length) {
          if (bytes.length - at < 5) {
            pending = bytes.slice(at);
            return;
          }
          const end = at + 1 + new DataView(bytes.buffer, bytes.byteOffset + at + 1, 4).getInt32(0);
          if (end > bytes.length) {
            if (bytes[at] === NOTIFICATION) pending = bytes.slice(at);
            else skip = end - bytes.length;
            return;
          }
          if (bytes[at] === NOTIFICATION) send(sender, bytes.slice(at, end));
          at = end;
        }
      };
    },
  };
}

export function serializeProtocolTurns(server: PGLiteSocketServer): void {
  const queue = (server as unknown as { queryQueue: QueryQueue }).queryQueue;
  const notifications = notificationRouter(server);
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
        const listenAgain = notifications.track(item.handlerId, item.message);
        const readNotifications = notifications.reader(item.handlerId);
        let bytes = 0;
        try {
          await this.db.runExclusive(() =>
            this.db.execProtocolRawStream(item.message, {
              onRawData: (data: Uint8Array) => {
                bytes += data.length;
                item.onData(data);
                readNotifications?.(data);
              },
            }),
          );
          // Outside runExclusive, which exec takes itself; the loop runs nothing else meanwhile.
          if (listenAgain) await this.db.exec(listenAgain);
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
