import fs from 'node:fs';

// USER_HZ, the unit of /proc/<pid>/stat's times: 100 on every Linux Node.js runs on.
const TICKS_PER_SECOND = 100;

/**
 * This process's CPU seconds with those of its children that have exited and been
 * waited for (utime, stime, cutime and cstime of /proc/self/stat), or undefined off Linux.
 */
export function cpuSecondsWithChildren(): number | undefined {
  let stat: string;
  try {
    stat = fs.readFileSync('/proc/self/stat', 'utf8');
  } catch {
    return undefined;
  }
  // The fields after the command's name, which may hold spaces, start with the state (field 3).
  const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
  const [utime, stime, cutime, cstime] = fields.slice(11, 15).map(Number);
  return (utime! + stime! + cutime! + cstime!) / TICKS_PER_SECOND;
}
