import { afterAll } from 'vitest';
import { processCpu } from './cpu-seconds';

declare module 'vitest' {
  interface TaskMeta {
    /** CPU seconds of the file's own process and of what it started and saw exit: servers, CLIs, the browser. */
    cpuSeconds?: number;
  }
}

// A worker's process runs several files one after another (tests/support/fresh-modules.ts), so a
// file's cost is what its process spent from this setup on. Registered first, this hook runs after
// the file's own, once its servers and browser are stopped.
const before = processCpu('self');
afterAll(({}, file) => {
  const after = processCpu('self');
  if (before && after) file.meta.cpuSeconds = after.own + after.children - (before.own + before.children);
});
