import fs from 'node:fs';

// USER_HZ, the unit of /proc/<pid>/stat's times: 100 on every Linux Node.js runs on.
const TICKS_PER_SECOND = 100;

export interface ProcessCpu {
  /** The process's own CPU seconds, user and system. */
  own: number;
  /** Those of its children that have exited and been waited for, with their own children's. */
  children: number;
  parent: number;
}

/** A process's CPU seconds from /proc/<pid>/stat, or undefined where there is none (not Linux, or gone). */
export function processCpu(pid: number | 'self'): ProcessCpu | undefined {
  let stat: string;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The fields after the command's name, which may hold spaces, start with the state (field 3).
  const fields = stat
    .slice(stat.lastIndexOf(') ') + 2)
    .split(' ')
    .map(Number);
  const [utime, stime, cutime, cstime] = fields.slice(11, 15) as [number, number, number, number];
  return { own: (utime + stime) / TICKS_PER_SECOND, children: (cutime + cstime) / TICKS_PER_SECOND, parent: fields[1]! };
}

/**
 * The CPU seconds of this process's children still running whose command line holds
 * `command` (not those that have exited), with what they waited for.
 */
export function runningChildrenCpu(command: string): number {
  let total = 0;
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const cpu = processCpu(Number(entry));
    if (cpu?.parent !== process.pid) continue;
    if (commandLineOf(entry).includes(command)) total += cpu.own + cpu.children;
  }
  return total;
}

function commandLineOf(pid: string): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return '';
  }
}
