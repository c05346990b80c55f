// npm postinstall: `prisma generate` through prisma/cli.mjs, which names the schema-engine
// stand-in; otherwise generate tries to download the engine's checksum and fails offline.
// It needs no database: prisma.config.ts tolerates a missing DATABASE_URL.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const cli = fileURLToPath(new URL('cli.mjs', import.meta.url));
const { status, error } = spawnSync(process.execPath, [cli, 'generate', ...process.argv.slice(2)], { stdio: 'inherit' });
if (error) throw error;
process.exit(status ?? 1);
