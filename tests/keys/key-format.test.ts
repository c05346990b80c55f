import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { authenticateKey } from '../../server/auth/api-key';
import type { Db } from '../../server/db/client';
import { generateKeySecret, isWellFormedKey } from '../../server/keys/key-format';

const HEX = '0123456789abcdef';

/** Every key that differs from `key` in exactly one of its 40 hex characters. */
function oneCharacterOff(key: string): string[] {
  const variants = [];
  for (let i = 3; i < key.length; i++) {
    for (const digit of HEX) if (digit !== key[i]) variants.push(key.slice(0, i) + digit + key.slice(i + 1));
  }
  return variants;
}

describe('API key secrets', () => {
  it('are tk_, 32 random hex, then the CRC32 of everything before it as 8 hex', () => {
    const key = generateKeySecret();
    expect(key).toMatch(/^tk_[0-9a-f]{40}$/);
    expect(key.slice(35)).toBe(crc32(key.slice(0, 35)).toString(16).padStart(8, '0'));
  });

  it('pass their own check', () => {
    expect(isWellFormedKey(generateKeySecret())).toBe(true);
  });

  it('are distinct and well-formed over 1,000 of them', () => {
    const keys = Array.from({ length: 1_000 }, generateKeySecret);
    expect(new Set(keys).size).toBe(1_000);
    expect(keys.filter((key) => !isWellFormedKey(key))).toEqual([]);
  });

  it('fail the check with any one character changed', () => {
    const variants = oneCharacterOff(generateKeySecret());
    expect(variants).toHaveLength(40 * 15);
    expect(variants.filter(isWellFormedKey)).toEqual([]);
  });

  it('fail the check in the format issued before checksums: tk_ and 40 random hex', () => {
    // Fixed, so the one case in 2^32 where random hex ends in its own checksum cannot make the test flaky.
    expect(isWellFormedKey('tk_3f9a1c0d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a39')).toBe(false);
  });

  it('fail the check in upper case or with anything around them', () => {
    const key = generateKeySecret();
    expect([key.toUpperCase(), `tk_${key.slice(3).toUpperCase()}`, ` ${key}`, `${key}\n`, `${key}0`].filter(isWellFormedKey)).toEqual([]);
  });
});

describe('authenticateKey', () => {
  const noDatabase = {
    $queryRaw: () => expect.fail('the database was asked about a key that fails its checksum'),
  } as unknown as Db;

  it('refuses a key with one character changed without a database lookup', async () => {
    const key = generateKeySecret();
    const mistyped = key.slice(0, 10) + (key[10] === 'a' ? 'b' : 'a') + key.slice(11);
    expect(await authenticateKey(noDatabase, mistyped, 'web')).toBeNull();
  });

  it('looks a key that passes its checksum up in the database', async () => {
    let asked = false;
    const database = {
      $queryRaw: async () => {
        asked = true;
        return [];
      },
    } as unknown as Db;
    expect(await authenticateKey(database, generateKeySecret(), 'web')).toBeNull();
    expect(asked).toBe(true);
  });
});
