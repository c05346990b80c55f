import type { RequestState } from '../api/access';

/** Pages whose descriptions hold less than this are answered without waiting. */
const SMALL_ANSWER_BYTES = 1024 * 1024;
/**
 * Description bytes that large answers may hold at once. Building an answer
 * takes about twice its text in heap (the rows, then the JSON), and the
 * production heap is capped (server/launch/server-process.ts): unchecked, a few
 * concurrent pages of 100 tasks with the longest descriptions exhaust it and the
 * process dies.
 */
const BUDGET_BYTES = 32 * 1024 * 1024;

export interface MemoryBudget {
  /** Resolves once `bytes` fit, in turn (at once when nothing is held), with the function that gives them back. */
  reserve(bytes: number): Promise<() => void>;
  readonly held: number;
}

export function createMemoryBudget(capacity: number): MemoryBudget {
  let held = 0;
  const queue: { bytes: number; grant: () => void }[] = [];
  const serve = () => {
    // First come, first served: a large answer at the head is not overtaken by small ones.
    while (queue.length > 0 && (held === 0 || held + queue[0]!.bytes <= capacity)) {
      const next = queue.shift()!;
      held += next.bytes;
      next.grant();
    }
  };
  return {
    reserve(bytes) {
      return new Promise((resolve) => {
        queue.push({
          bytes,
          grant: () => {
            let released = false;
            resolve(() => {
              if (released) return;
              released = true;
              held -= bytes;
              serve();
            });
          },
        });
        serve();
      });
    },
    get held() {
      return held;
    },
  };
}

const budget = createMemoryBudget(BUDGET_BYTES);

/**
 * Holds `bytes` of the process's answer budget for this request until
 * handlePublicRequest has turned its answer into bytes; small answers pass.
 */
export async function reserveAnswerMemory(state: RequestState, bytes: number): Promise<void> {
  if (bytes < SMALL_ANSWER_BYTES) return;
  state.releaseMemory = await budget.reserve(bytes);
}
