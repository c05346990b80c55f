import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { db } from '../../server/db/client';
import { SCOPES } from '../../server/keys/scopes';
import { createProject } from '../../server/projects/projects';
import { TaskApi, type TaskApiOptions } from '../../client/src/index';
import { ensureBuild } from '../support/build';
import { createWorkspaceFixture, type WorkspaceFixture } from '../support/fixtures';
import { startAppServer, type AppServer } from '../e2e/app-server';
import { packClient } from './support';

/** Each key's requests a minute on this file's server: low, so that a burst of 50 goes past it. */
export const RATE_LIMIT_PER_MINUTE = 40;

export interface ClientContext {
  app: AppServer;
  fx: WorkspaceFixture;
  /** The API's root on the production server. */
  baseUrl: string;
  /** The tarball `npm pack` made of client/ (dist/ built beside it). */
  tarball: string;
  /** A project's slug for the tests that count what they create: the walk of 1,000, the import. */
  projects: { walk: string; import: string; hooks: string };
  /** Subscribes `url` to project `hooks`'s task.created through the API; resolves with the signing secret. */
  webhook(url: string): Promise<string>;
  /** A key of its own (every scope unless told), so that each test has the rate limit to itself. */
  key(scopes?: (typeof SCOPES)[number][]): Promise<string>;
  /** A client of the production server with a key of its own. */
  client(options?: Partial<TaskApiOptions>): Promise<TaskApi>;
}

/**
 * One production server (`npm start`, its webhook worker included) for all the client's tests, on the file's
 * database: a workspace fixture, two projects of its own for the tests that count
 * tasks, and one for webhooks. `npm pack` builds the client beside it.
 */
export function useClientServer(): ClientContext {
  const context = {} as ClientContext;
  beforeAll(async () => {
    await ensureBuild();
    const fx = await createWorkspaceFixture();
    await Promise.all(
      ['walk', 'import', 'hooks'].map((slug) =>
        createProject(db(), { workspaceId: fx.workspace.id, slug, name: slug, keyPrefix: slug.toUpperCase() }),
      ),
    );
    const [app, tarball] = await Promise.all([
      startAppServer(
        process.env.DATABASE_URL!,
        { RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT_PER_MINUTE), WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true' },
        // The whole of npm start: its resident worker delivers the webhooks.
        { launcher: true },
      ),
      packClient(),
    ]);
    Object.assign(context, {
      app,
      fx,
      baseUrl: `${app.baseUrl}/v1/public`,
      tarball,
      projects: { walk: 'walk', import: 'import', hooks: 'hooks' },
      async webhook(url: string) {
        const api = await context.client();
        return (await api.webhooks.create({ url, events: ['task.created'], project: 'hooks' })).secret;
      },
      key: (scopes = [...SCOPES]) => fx.key({ scopes }),
      async client(options = {}) {
        return new TaskApi({ apiKey: await fx.key({ scopes: [...SCOPES] }), baseUrl: `${app.baseUrl}/v1/public`, ...options });
      },
    } satisfies ClientContext);
  });

  afterAll(async () => {
    await context.app?.stop();
    if (context.tarball) await fs.rm(path.dirname(context.tarball), { recursive: true, force: true });
  });
  return context;
}
