import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

// The fault and deployment tests and the benchmark start through this runner.
const root = path.resolve(import.meta.dirname, '../..');
const runner = path.join(root, 'tests/support/on-lts-node.mjs');
const run = promisify(execFile);
// The Node lts-node.mjs brings (it checks the binary is its pinned version), asked of that binary itself.
const ltsBin = (await run(process.execPath, [path.join(root, 'tests/support/lts-node.mjs')], { cwd: root })).stdout.trim();
const ltsVersion = (await run(path.join(ltsBin, 'node'), ['--version'])).stdout.trim();

/** What `node -p` prints of `expression` when the runner starts it, from the machine's Node. */
async function printed(expression: string, env: NodeJS.ProcessEnv): Promise<string> {
  const { stdout } = await run(process.execPath, [runner, '-p', expression], { cwd: root, env });
  return stdout.trim();
}

describe('the runner of the test scripts', () => {
  it("runs Node.js at the version production runs, whatever Node starts it, with it first in its children's PATH", async () => {
    const env = { ...process.env, ON_NODE: undefined };
    expect(await printed('process.version', env)).toBe(ltsVersion);
    expect(await printed(`require('node:child_process').execFileSync('node', ['--version'], { encoding: 'utf8' }).trim()`, env)).toBe(
      ltsVersion,
    );
  });

  it('keeps the Node that started it with ON_NODE=current', async () => {
    expect(await printed('process.version', { ...process.env, ON_NODE: 'current' })).toBe(process.version);
  });

  it('names the scripts that start through it', async () => {
    const { scripts } = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    for (const name of ['test:faults', 'test:deploy', 'bench']) {
      expect(scripts[name]).toMatch(/^node tests\/support\/on-lts-node\.mjs /);
    }
  });
});
