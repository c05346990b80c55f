import { afterAll, beforeAll } from 'vitest';
import { apiClient } from './client';
import { createWorkspaceFixture, type WorkspaceFixture } from './fixtures';
import { startTestServer, type TestServer } from './http';

export interface ApiContext {
  server: TestServer;
  fixture: WorkspaceFixture;
  /** A key with every scope on every project of the fixture's workspace. */
  key: string;
  /** A client holding that key. */
  client: ReturnType<typeof apiClient>;
  clientWith(key: string): ReturnType<typeof apiClient>;
}

/**
 * Starts the app over HTTP with a fresh workspace for the test file. Files that
 * test the per-key limit itself set their own RATE_LIMIT_PER_MINUTE first.
 */
export function useApi(): ApiContext {
  process.env.RATE_LIMIT_PER_MINUTE ??= '100000';
  const context = {} as ApiContext;
  beforeAll(async () => {
    context.server = await startTestServer();
    context.fixture = await createWorkspaceFixture();
    context.key = await context.fixture.key();
    context.client = apiClient(context.server.baseUrl, context.key);
    context.clientWith = (key) => apiClient(context.server.baseUrl, key);
  });
  afterAll(() => context.server.close());
  return context;
}
