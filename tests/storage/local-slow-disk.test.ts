import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it, vi } from 'vitest';
import { createLocalStore } from '../../server/storage/local';

const OPEN_DELAY_MS = 50;

// A loaded disk: every file the store writes takes a while to open.
vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs')>();
  const slowOpen: typeof real.open = ((...args: Parameters<typeof real.open>) => {
    setTimeout(() => (real.open as (...a: unknown[]) => void)(...args), OPEN_DELAY_MS);
  }) as typeof real.open;
  const createWriteStream: typeof real.createWriteStream = (file, options) =>
    real.createWriteStream(file, { ...(typeof options === 'object' ? options : {}), fs: { ...real, open: slowOpen } });
  return { ...real, default: { ...real, createWriteStream }, createWriteStream };
});

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'taskapi-slow-disk-'));

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
// The worker's next file shares this process (tests/support/fresh-modules.ts) and must not meet this mock.
afterAll(() => vi.doUnmock('node:fs'));

it('leaves no partial file when the body fails while the file is still opening', async () => {
  const store = createLocalStore(dir, 'http://localhost');
  const failing = new ReadableStream<Uint8Array>({
    pull(controller) {
      controller.error(new Error('client went away'));
    },
  });

  await expect(store.put('broken', failing, 'text/plain')).rejects.toThrow('client went away');
  await new Promise((resolve) => setTimeout(resolve, OPEN_DELAY_MS * 2));

  expect(fs.readdirSync(dir)).toEqual([]);
});
