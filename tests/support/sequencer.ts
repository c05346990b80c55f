import { readFileSync } from 'node:fs';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { ensureBuild } from './build.js';

// The build-needing files that hold a worker longest, by half a minute or more (one
// waits out the 30 s body deadline, the client's a rate limit's window or two): they start
// first among those files, so that the run does not end with one of them running alone on
// a machine otherwise idle.
const LONGEST = [
  'tests/client/client.test.ts',
  'tests/hostile/slow-bodies.test.ts',
  'tests/hostile/memory.test.ts',
  'tests/launch/supervisor.test.ts',
];

/**
 * The files that start the production server need `next build`, which takes a core
 * for a minute or more. When the run has any, the build starts with the run, and
 * those files go last, so the build runs beside the other files instead of before
 * the first of them. Otherwise Vitest's order holds: longest first once it has timed
 * a run here, else largest first.
 */
export default class BuildLastSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const needsBuild = (file: TestSpecification) => readFileSync(file.moduleId, 'utf8').includes('ensureBuild(');
    const rank = (file: TestSpecification) => {
      const index = LONGEST.findIndex((name) => file.moduleId.endsWith(name));
      return index === -1 ? LONGEST.length : index;
    };
    const last = sorted.filter(needsBuild).sort((a, b) => rank(a) - rank(b));
    // A failed build fails the files that need it, with its output, when they build again.
    if (last.length > 0) void ensureBuild().catch(() => {});
    return [...sorted.filter((file) => !needsBuild(file)), ...last];
  }
}
