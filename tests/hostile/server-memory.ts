import fs from 'node:fs';
import { BODY_DEADLINE_S, BODY_TOO_SLOW } from '../../server/api/messages';

// What a burst may add to the warmed-up server's resident size. Request bodies share a 32 MiB
// budget (server/http/body.ts), but what they leave is garbage until V8 next collects, and the
// heap may hold up to 240 MB (server/launch/server-process.ts) against about 100 MB live: most
// bursts add 0 to 50 MB, and one in a few dozen, its collection late, 100 to 115 MB (2026-11-27,
// on Node 20 and 26 at load 5 to 7). Any burst of memory.test.ts and mcp.test.ts held whole would
// add hundreds of megabytes to a gigabyte: 50 bodies of 20 MB, 50 answers of 10 MB twice over, 20
// MCP answers of 10 MB; eight 20 MB bodies held at once would pass this bound.
export const BURST_GROWTH_BYTES = 160 * 1024 * 1024;

/** A process's resident size now (VmRSS) or at its peak (VmHWM), from Linux's /proc/<pid>/status. */
function memoryFigure(pid: number, name: 'VmRSS' | 'VmHWM'): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)![1]) * 1024;
}

/**
 * Starts counting the process's peak resident size afresh (Linux: /proc/<pid>/clear_refs);
 * the function returned tells how far it has risen above its size now, at its peak.
 */
export function watchPeak(pid: number): () => number {
  fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
  const before = memoryFigure(pid, 'VmRSS');
  return () => memoryFigure(pid, 'VmHWM') - before;
}

/** The answer of `call`, with how long it took from the moment it was sent. */
export async function timed<T extends object>(call: () => Promise<T>): Promise<T & { tookMs: number }> {
  const sent = Date.now();
  const answer = await call();
  return { ...answer, tookMs: Date.now() - sent };
}

/**
 * A burst's answer that is the body deadline's 408, come after the deadline: on a machine loaded
 * by other work a large body can take longer than that to arrive, and then 408 is the answer the
 * API promises. A 408 before the deadline, or with another message, is not this.
 */
export function tooSlow(answer: { status: number; body: unknown; tookMs: number }): boolean {
  if (answer.status !== 408 || answer.tookMs < BODY_DEADLINE_S * 1000) return false;
  const body = typeof answer.body === 'string' ? (JSON.parse(answer.body) as unknown) : answer.body;
  return (body as { message?: string }).message === BODY_TOO_SLOW;
}
