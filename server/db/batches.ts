/**
 * Runs a delete of at most `size` rows until one deletes fewer, at most `maxBatches`
 * times: `more` when it stopped at that bound, for the purge to run again from there.
 */
export async function inBatches(
  batch: () => Promise<number>,
  size: number,
  maxBatches: number,
): Promise<{ deleted: number; more: boolean }> {
  let deleted = 0;
  for (let run = 0; run < maxBatches; run++) {
    const count = await batch();
    deleted += count;
    if (count < size) return { deleted, more: false };
  }
  return { deleted, more: true };
}
