import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The layers of server/ (LAYERS in eslint.config.mjs), judged by `npm run lint`'s own
// configuration on a file written into the checkout where such an import would live.
const root = path.resolve(import.meta.dirname, '../..');
const eslint = new ESLint({ cwd: root });

/** Lints `source` as a new file in `folder` of server/ (made for the test when missing), and removes what it wrote. */
async function lintIn(folder: string, source: string) {
  const directory = path.join(root, 'server', folder);
  const made = fs.mkdirSync(directory, { recursive: true });
  const file = path.join(directory, `layers-probe-${randomBytes(4).toString('hex')}.ts`);
  try {
    fs.writeFileSync(file, source);
    const [result] = await eslint.lintFiles([file]);
    return result!.messages.map(({ ruleId, messageId, message, line }) => ({ ruleId, messageId, message, line }));
  } finally {
    fs.rmSync(made ?? file, { recursive: true, force: true });
  }
}

const refused = (messageId: string, line: number) => expect.objectContaining({ ruleId: 'layers/one-way', messageId, line });

describe('the layers of server/', () => {
  it('refuse an import of a folder above, spelled either way', async () => {
    const messages = await lintIn('audit', "import '../webhooks/events';\nimport '@/server/api/router';\n");

    expect(messages).toEqual([refused('upward', 1), refused('upward', 2)]);
    expect(messages[0]!.message).toContain('server/audit may not import server/webhooks');
    expect(messages[1]!.message).toContain('server/audit may not import server/api');
  });

  it('refuse an import that closes a circle between two folders, directly or through others', async () => {
    // keys/ imports projects/; retention/ imports audit/; jobs/ imports webhooks/, which imports audit/.
    const messages = await lintIn(
      'projects',
      "import '../keys/manage';\nexport const purge = () => import('@/server/retention/purge');\nexport type { WebhookWorker } from '../jobs/worker';\n",
    );

    expect(messages).toEqual([refused('upward', 1), refused('upward', 2), refused('upward', 3)]);
  });

  it('refuse a folder missing from the order', async () => {
    const messages = await lintIn(`probe-${randomBytes(4).toString('hex')}`, "import '../db/client';\n");

    expect(messages).toEqual([refused('unlisted', 1)]);
  });

  it('refuse app/ from server/', async () => {
    expect(await lintIn('http', "import '@/app/layout';\n")).toEqual([refused('app', 1)]);
  });

  it('let a folder import the folders below it and its own files', async () => {
    const messages = await lintIn(
      'webhooks',
      "import '../audit/record';\nimport '@/server/outbox/delivery-job';\nimport '../../server/db/client';\nimport './events';\nimport 'graphile-worker';\n",
    );

    expect(messages).toEqual([]);
  });
});
