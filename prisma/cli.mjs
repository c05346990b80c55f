#!/usr/bin/env node
// Runs the Prisma CLI with this repo's config and the wasm schema-engine stand-in, offline.
// Usage: node prisma/cli.mjs <prisma args...>   e.g. node prisma/cli.mjs migrate deploy
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { constants } from 'node:os';
import { fileURLToPath } from 'node:url';

const here = (file) => fileURLToPath(new URL(file, import.meta.url));
const args = process.argv.slice(2);
// Prisma 7 only looks for prisma7.config.* in the working directory, so name ours. The CLI
// parses --config before dispatching, so every command accepts it; keep a caller's own.
if (!args.some((arg) => arg === '--config' || arg.startsWith('--config='))) args.push('--config', here('prisma.config.ts'));

const cli = createRequire(import.meta.url).resolve('prisma/build/index.js');
const child = spawn(process.execPath, [cli, ...args], {
  stdio: 'inherit',
  env: {
    ...process.env,
    PRISMA_SCHEMA_ENGINE_BINARY: here('../server/vendor/prisma-schema-engine.mjs'),
    PRISMA_HIDE_UPDATE_MESSAGE: '1',
    CHECKPOINT_DISABLE: '1',
  },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? 128 + (constants.signals[signal] ?? 1)));
