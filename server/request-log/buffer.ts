import { bounded, sizeOf, type RequestRecord } from './record';

/**
 * The records of this process waiting for the next flush. Bounded in number and in
 * size: should the database not take them for a while, the newest are dropped and
 * counted rather than the process's memory growing.
 */
const MAX_BUFFERED_RECORDS = 10_000;
const MAX_BUFFERED_CHARS = 4 * 1024 * 1024;

const buffer: { records: RequestRecord[]; chars: number; dropped: number } = { records: [], chars: 0, dropped: 0 };

/** Keeps the record for the next flush; never waits, never throws. */
export function keepRecord(record: RequestRecord): void {
  const kept = bounded(record);
  const size = sizeOf(kept);
  if (buffer.records.length >= MAX_BUFFERED_RECORDS || buffer.chars + size > MAX_BUFFERED_CHARS) {
    buffer.dropped += 1;
    return;
  }
  buffer.records.push(kept);
  buffer.chars += size;
}

/** Up to `max` of the oldest records, taken out of the buffer. */
export function takeRecords(max: number): RequestRecord[] {
  const taken = buffer.records.splice(0, max);
  buffer.chars -= taken.reduce((sum, record) => sum + sizeOf(record), 0);
  return taken;
}

export function bufferedRecords(): number {
  return buffer.records.length;
}

/** Counts records a flush could not write. */
export function noteDropped(records: number): void {
  buffer.dropped += records;
}

/** Records lost since the last call, to a full buffer or a failed flush. */
export function takeDropped(): number {
  const dropped = buffer.dropped;
  buffer.dropped = 0;
  return dropped;
}
