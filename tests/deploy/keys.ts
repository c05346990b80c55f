import { db } from '../../server/db/client';
import { generateKeySecret, hashKey, keyHint } from '../../server/keys/key-format';
import { SCOPES } from '../../server/keys/scopes';

/** `count` keys of the workspace with every scope, made in one statement; their plaintext, in order. */
export async function createKeys(workspaceId: string, count: number): Promise<string[]> {
  const secrets = Array.from({ length: count }, () => generateKeySecret());
  await db().apiKey.createMany({
    data: secrets.map((secret, i) => ({
      workspaceId,
      name: `Deployment ${i + 1}`,
      scopes: [...SCOPES],
      keyHash: hashKey(secret),
      hint: keyHint(secret),
    })),
  });
  return secrets;
}

/**
 * Keys for load, each handed out at most `usesPerKey` times: with fewer uses than
 * the per-minute limit over the whole run, no request of a burst is limited, so
 * every answer but a success is a fault of the deployment.
 */
export class KeyRing {
  private next = 0;
  private uses = 0;

  constructor(
    private readonly keys: string[],
    private readonly usesPerKey: number,
  ) {}

  take(): string {
    if (this.uses === this.usesPerKey) {
      this.next++;
      this.uses = 0;
    }
    const key = this.keys[this.next];
    if (!key) throw new Error(`The key ring ran out: ${this.keys.length} keys of ${this.usesPerKey} uses were not enough`);
    this.uses++;
    return key;
  }
}
