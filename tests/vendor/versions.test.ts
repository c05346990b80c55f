import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// Every workaround on a library's internals lives in server/vendor/ and names the
// versions it was written for: an upgrade of any of them fails here first, and the
// file says which test shows whether the workaround still holds.
const root = path.resolve(import.meta.dirname, '../..');
const vendor = path.join(root, 'server/vendor');
const files = fs.readdirSync(vendor).filter((file) => /\.(ts|mjs)$/.test(file));
function installedVersion(name: string): string {
  // Read from node_modules directly: some packages' `exports` hide their package.json.
  return JSON.parse(fs.readFileSync(path.join(root, 'node_modules', name, 'package.json'), 'utf8')).version;
}

describe('server/vendor', () => {
  it('holds the workarounds', () => {
    expect(files.sort()).toEqual([
      'pglite-socket-turns.ts',
      'prisma-schema-engine.mjs',
      'trpc-router-procedures.ts',
      'trpc-to-openapi-caller.ts',
      'upstash-ratelimit-on-redis.ts',
    ]);
  });

  it.each(files)('%s names what it relies on and the test that guards it, and fits the installed versions', (file) => {
    const text = fs.readFileSync(path.join(vendor, file), 'utf8');
    const fits = [...text.matchAll(/@fits (@?[^@\s]+)@(\S+)/g)].map(([, name, version]) => ({ name: name!, version: version! }));

    expect(fits.length).toBeGreaterThan(0);
    expect(text).toMatch(/Relies on:/);
    expect(text).toMatch(/Guarded by:/);
    for (const { name, version } of fits) expect(installedVersion(name), name).toBe(version);
  });
});
