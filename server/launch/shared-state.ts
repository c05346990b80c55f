import type { Env } from '../env';

/**
 * What `npm start` says when it runs on a database server (so, possibly, as one of
 * several machines behind a load balancer) with state that one machine keeps for
 * itself. Each works on one machine; on several, sessions and download links signed
 * by one are refused by the others, files stored on one are missing on the others,
 * and each counts its own rate limits.
 */
export function sharedStateWarnings(config: Env, embedded: boolean): string[] {
  if (embedded) return [];
  const warnings: string[] = [];
  if (!config.appSecret) {
    warnings.push(
      `Warning: APP_SECRET is not set, so this machine signs sessions and download links with a secret of its own (${config.dataDir}/app-secret). Several machines need one APP_SECRET.`,
    );
  }
  if (config.storage.kind === 'local') {
    warnings.push(
      `Warning: BLOB_READ_WRITE_TOKEN is not set, so attachments are stored on this machine's disk (${config.storage.dir}). Several machines need a Blob store.`,
    );
  }
  if (config.limiter.kind === 'memory') {
    warnings.push(
      'Warning: neither REDIS_URL nor UPSTASH_REDIS_REST_URL is set, so this machine counts rate limits for itself. Several machines need a shared store.',
    );
  }
  return warnings;
}
