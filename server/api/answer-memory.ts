import type { RequestState } from '../api/access';
import { createMemoryBudget } from './memory-budget';

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

const budget = createMemoryBudget(BUDGET_BYTES);

/**
 * Holds `bytes` of the process's answer budget for this request until
 * handlePublicRequest has turned its answer into bytes; small answers pass.
 */
export async function reserveAnswerMemory(state: RequestState, bytes: number): Promise<void> {
  if (bytes < SMALL_ANSWER_BYTES) return;
  state.releaseMemory = (await budget.reserve(bytes)) ?? undefined;
}
