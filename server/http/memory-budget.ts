/**
 * Bytes of the process's heap that requests may hold at once. Each request holds
 * its share through a `Holding` of its own, which grows as the request reads its
 * body and builds its answer, and is given back whole once the answer has left.
 *
 * Reservations are served in the order they are asked for, except that the oldest
 * request still holding or waiting is always served at once, even past capacity:
 * a request that has started can always finish, so requests that each hold part of
 * a body cannot all wait on each other. At most one request is past capacity at a
 * time, so what is held stays under the capacity plus one request's share.
 */
export interface MemoryBudget {
  /** A new, empty share for one request. */
  holding(): Holding;
  readonly held: number;
  readonly capacity: number;
}

export interface Holding {
  /** Bytes this share holds now. */
  readonly held: number;
  /** Adds `bytes` to the share once they fit; false when they did not within `timeoutMs`. */
  reserve(bytes: number, timeoutMs?: number): Promise<boolean>;
  /** Gives `bytes` of the share back: what a streamed body held of a chunk now written on. */
  giveBack(bytes: number): void;
  /** Gives everything the share holds back; it can be used again afterwards. */
  release(): void;
}

interface Pending {
  share: Share;
  bytes: number;
  grant(granted: boolean): void;
}

interface Share extends Holding {
  pending?: Pending;
  add(bytes: number): void;
}

export function createMemoryBudget(capacity: number): MemoryBudget {
  let held = 0;
  const queue: Pending[] = [];
  // Shares holding or waiting, oldest first (a Set keeps insertion order).
  const active = new Set<Share>();

  const grant = (entry: Pending) => {
    queue.splice(queue.indexOf(entry), 1);
    entry.share.pending = undefined;
    entry.share.add(entry.bytes);
    entry.grant(true);
  };
  const serve = () => {
    for (;;) {
      const oldest = active.values().next().value;
      if (oldest?.pending) grant(oldest.pending);
      else if (queue.length > 0 && held + queue[0]!.bytes <= capacity) grant(queue[0]!);
      else return;
    }
  };

  function holding(): Holding {
    let mine = 0;
    const share: Share = {
      get held() {
        return mine;
      },
      add(bytes) {
        mine += bytes;
        held += bytes;
      },
      reserve(bytes, timeoutMs) {
        if (bytes <= 0) return Promise.resolve(true);
        return new Promise<boolean>((resolve) => {
          let timer: NodeJS.Timeout | undefined;
          const entry: Pending = {
            share,
            bytes,
            grant(granted) {
              clearTimeout(timer);
              resolve(granted);
            },
          };
          share.pending = entry;
          active.add(share);
          queue.push(entry);
          serve();
          if (share.pending === entry && timeoutMs !== undefined) {
            timer = setTimeout(() => {
              queue.splice(queue.indexOf(entry), 1);
              share.pending = undefined;
              if (mine === 0) active.delete(share);
              entry.grant(false);
              // Leaving the queue may let the next ones in.
              serve();
            }, timeoutMs);
          }
        });
      },
      giveBack(bytes) {
        const given = Math.min(bytes, mine);
        mine -= given;
        held -= given;
        serve();
      },
      release() {
        if (share.pending) {
          queue.splice(queue.indexOf(share.pending), 1);
          share.pending.grant(false);
          share.pending = undefined;
        }
        held -= mine;
        mine = 0;
        active.delete(share);
        serve();
      },
    };
    return share;
  }

  return {
    holding,
    get held() {
      return held;
    },
    capacity,
  };
}
