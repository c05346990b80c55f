export interface MemoryBudget {
  /**
   * Resolves once `bytes` fit, in turn (at once when nothing is held), with the
   * function that gives them back; null when they did not fit within `timeoutMs`.
   */
  reserve(bytes: number, timeoutMs?: number): Promise<(() => void) | null>;
  readonly held: number;
}

/**
 * Bytes of the process's heap that requests may hold at once, handed out first
 * come, first served. A reservation larger than the whole capacity is granted
 * alone, when nothing else is held.
 */
export function createMemoryBudget(capacity: number): MemoryBudget {
  let held = 0;
  const queue: { bytes: number; grant: () => void }[] = [];
  const serve = () => {
    // A large reservation at the head is not overtaken by small ones.
    while (queue.length > 0 && (held === 0 || held + queue[0]!.bytes <= capacity)) {
      const next = queue.shift()!;
      held += next.bytes;
      next.grant();
    }
  };
  return {
    reserve(bytes, timeoutMs) {
      return new Promise((resolve) => {
        let timer: NodeJS.Timeout | undefined;
        const entry = {
          bytes,
          grant: () => {
            clearTimeout(timer);
            let released = false;
            resolve(() => {
              if (released) return;
              released = true;
              held -= bytes;
              serve();
            });
          },
        };
        queue.push(entry);
        serve();
        if (timeoutMs !== undefined && queue.includes(entry)) {
          timer = setTimeout(() => {
            queue.splice(queue.indexOf(entry), 1);
            resolve(null);
            // Leaving the head may let the next ones in.
            serve();
          }, timeoutMs);
        }
      });
    },
    get held() {
      return held;
    },
  };
}
