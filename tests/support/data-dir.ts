import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';

/**
 * Every test file keeps its files (local uploads, the app secret) in a folder of
 * its own, removed after the file's own teardown, never in the checkout's .data.
 */
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'taskapi-test-data-'));
process.env.DATA_DIR = dataDir;

afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));
