import path from 'node:path';
import { build } from 'esbuild';
import { LAUNCH_DIR } from './server-process.js';

const here = import.meta.dirname;

/**
 * `npm run build`'s step after `next build`: the production server's own entry points,
 * the supervisor and the server process it forks, each bundled into one module in
 * LAUNCH_DIR, the packages they import left to Node. Loaded from source through tsx, a
 * server process took 5.0 to 5.6 s of CPU to come up on Node 20, about half of it tsx's
 * module hooks and Node compiling each module apart; from the bundle, 2.5 to 3.2 s, and
 * the supervisor 0.4 s instead of 1.2. Every start pays it: `npm start`, each restart of a
 * server process, and the test suite's twenty-odd servers. The bundle is the build's, like
 * Next.js's own output: the public API `npm start` serves is the code that was built, as
 * its pages are. LAUNCH_DIR is two folders below the root as server/launch is, so that the
 * paths these modules resolve from their own place (the root, `../..`) hold in the bundle.
 */
export async function bundleServer(): Promise<void> {
  await build({
    entryPoints: [path.join(here, 'supervisor.ts'), path.join(here, 'production-server.ts')],
    outdir: LAUNCH_DIR,
    // .next/package.json makes its .js files CommonJS.
    outExtension: { '.js': '.mjs' },
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    logLevel: 'warning',
  });
}
