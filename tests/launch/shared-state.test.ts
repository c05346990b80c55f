import { describe, expect, it } from 'vitest';
import { parseEnv } from '../../server/env';
import { sharedStateWarnings } from '../../server/launch/shared-state';

describe('npm start on a database server', () => {
  it('warns of each piece of state this machine keeps for itself: a generated secret, files on its disk, limits in its memory', () => {
    const warnings = sharedStateWarnings(parseEnv({ DATABASE_URL: 'postgres://db/tasks' }), false);
    expect(warnings).toHaveLength(3);
    expect(warnings[0]).toMatch(/^Warning: APP_SECRET is not set, .* Several machines need one APP_SECRET\.$/);
    expect(warnings[1]).toMatch(/^Warning: BLOB_READ_WRITE_TOKEN is not set, .* Several machines need a Blob store\.$/);
    expect(warnings[2]).toMatch(
      /^Warning: neither REDIS_URL nor UPSTASH_REDIS_REST_URL is set, .* Several machines need a shared store\.$/,
    );
  });

  it('says nothing when the secret, the files and the limits are shared', () => {
    const config = parseEnv({
      DATABASE_URL: 'postgres://db/tasks',
      APP_SECRET: 'x'.repeat(32),
      BLOB_READ_WRITE_TOKEN: 'vercel_blob_rw_store_secret',
      REDIS_URL: 'redis://127.0.0.1:6379',
    });
    expect(sharedStateWarnings(config, false)).toEqual([]);
  });

  it('says nothing on the embedded database, which is one machine by nature', () => {
    expect(sharedStateWarnings(parseEnv({}), true)).toEqual([]);
  });
});
