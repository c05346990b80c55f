import { readFileSync } from 'node:fs';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { ensureBuild } from './build.js';

/**
 * The files that start the production server need `next build`, which takes a core
 * for a minute or more. When the run has any, the build starts with the run, and
 * those files go last, so the build runs beside the other files instead of before
 * the first of them.
 */
export default class BuildLastSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const needsBuild = (file: TestSpecification) => readFileSync(file.moduleId, 'utf8').includes('ensureBuild(');
    const last = sorted.filter(needsBuild);
    // A failed build fails the files that need it, with its output, when they build again.
    if (last.length > 0) void ensureBuild().catch(() => {});
    return [...sorted.filter((file) => !needsBuild(file)), ...last];
  }
}
