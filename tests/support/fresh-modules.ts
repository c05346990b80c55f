import { vi } from 'vitest';

/**
 * The files of a worker share its process (`isolate: false`, tests/vitest.config.ts):
 * the libraries under node_modules, Prisma's, Next.js's, better-auth's and the MCP
 * SDK's, load once per worker instead of once per file, which was most of a file's
 * CPU. What a file could see of the file before it is put back as a new process
 * would have it, first of the setup files: the environment as the worker started,
 * the app's singletons kept on globalThis (the pool, the limiters, the store), and
 * the project's own modules, evaluated afresh.
 */
const holder = globalThis as unknown as Record<string, unknown> & { __taskApiTestStartEnv?: NodeJS.ProcessEnv };
const startEnv = (holder.__taskApiTestStartEnv ??= { ...process.env });

for (const name of Object.keys(process.env)) if (!(name in startEnv)) delete process.env[name];
Object.assign(process.env, startEnv);

// tests/support/database.ts closed the last file's pools; one here was opened since, by something of
// that file still running, and would send this file's queries to a database that is gone.
if (holder.__taskApiPool || holder.__taskApiReplica) {
  throw new Error(
    'The file before this one in its worker left work that opened a database pool after its teardown: stop it in tests/support/database.ts',
  );
}
for (const name of Object.keys(holder)) if (name.startsWith('__taskApi') && name !== '__taskApiTestStartEnv') delete holder[name];

vi.resetModules();
