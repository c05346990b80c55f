import { afterAll } from 'vitest';
import { processCpu } from './cpu-seconds';

declare module 'vitest' {
  interface TaskMeta {
    /** CPU seconds of the file's own process and of what it started and saw exit: servers, CLIs, the browser. */
    cpuSeconds?: number;
  }
}

// Each file runs in a process of its own (pool forks, isolated), so this is the file's cost,
// Vitest's start in it included; registered first, this hook runs after the file's own, once
// its servers and browser are stopped.
afterAll(({}, file) => {
  const cpu = processCpu('self');
  if (cpu) file.meta.cpuSeconds = cpu.own + cpu.children;
});
