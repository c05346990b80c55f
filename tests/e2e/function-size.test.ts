import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuild } from '../support/build';
import { tracedRoutes, type TracedRoute } from '../support/traced-files';

const nextDir = fileURLToPath(new URL('../../.next', import.meta.url));
let routes: TracedRoute[];

beforeAll(async () => {
  await ensureBuild();
  routes = await tracedRoutes(nextDir);
}, 600_000);

describe('the functions a build makes', () => {
  it("trace no route into TypeScript's compiler (graphile-worker's config search would bring it)", () => {
    expect(routes.map((route) => route.route)).toContain(path.normalize('/v1/public/[...path]'));
    expect(routes.filter((route) => route.typescriptBytes > 0)).toEqual([]);
  });
});
