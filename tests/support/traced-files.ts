import fs from 'node:fs/promises';
import path from 'node:path';

export interface TracedRoute {
  /** The route's path in the app, e.g. `/v1/public/[...path]`. */
  route: string;
  bytes: number;
  /** Of those, TypeScript's compiler. */
  typescriptBytes: number;
}

/**
 * What each route handler of a `next build` takes into its function: the files its
 * `.nft.json` lists (Next's file tracer, which Vercel packs into the function), and
 * their size on disk.
 */
export async function tracedRoutes(nextDir: string): Promise<TracedRoute[]> {
  const appDir = path.join(nextDir, 'server', 'app');
  const traces = (await fs.readdir(appDir, { recursive: true })).filter((name) => name.endsWith('route.js.nft.json'));
  const routes = await Promise.all(
    traces.map(async (trace) => {
      const file = path.join(appDir, trace);
      const { files } = JSON.parse(await fs.readFile(file, 'utf8')) as { files: string[] };
      let bytes = 0;
      let typescriptBytes = 0;
      for (const listed of files) {
        const full = path.resolve(path.dirname(file), listed);
        const size = await fs.stat(full).then(
          (stat) => stat.size,
          () => 0,
        );
        bytes += size;
        if (full.includes(`${path.sep}node_modules${path.sep}typescript${path.sep}`)) typescriptBytes += size;
      }
      return { route: `/${path.dirname(trace)}`, bytes, typescriptBytes };
    }),
  );
  return routes.sort((a, b) => a.route.localeCompare(b.route));
}
