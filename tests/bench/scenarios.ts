import { randomBytes } from 'node:crypto';
import type { BenchFixture } from './seed';

export interface Scenario {
  name: string;
  /** Also run against the floor (every scenario but the upload). */
  floor: boolean;
  method: 'GET' | 'POST' | 'PATCH';
  /** A path per request, so rows, pages and locks spread like real traffic. */
  path(): string;
  body?(): string | Buffer<ArrayBuffer>;
  contentType?: string;
}

const UPLOAD_BYTES = 100 * 1024;
const BOUNDARY = 'benchboundary7MA4YWxkTrZu0gW';

const pick = (max: number) => 1 + Math.floor(Math.random() * max);

/** One 100 KB file part named `file`, the body every upload request sends. */
function multipartFile(): Buffer<ArrayBuffer> {
  return Buffer.concat([
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="capture.bin"\r\n` +
        'Content-Type: application/octet-stream\r\n\r\n',
    ),
    randomBytes(UPLOAD_BYTES),
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
}

/** Reads go to the 100,000-task project; writes to the small one, so the reads see the same data in every run. */
export function scenarios(fixture: BenchFixture): Scenario[] {
  const big = `/v1/public/${fixture.big.slug}/tasks`;
  const small = `/v1/public/${fixture.small.slug}/tasks`;
  const smallTask = () => `${small}/${fixture.small.prefix}-${pick(fixture.small.topLevel)}`;
  const upload = multipartFile();
  let written = 0;
  return [
    { name: 'list', floor: true, method: 'GET', path: () => big },
    {
      name: 'list-filtered',
      floor: true,
      method: 'GET',
      path: () => `${big}?status=in_progress&priority=high&labelId=${fixture.labelId}`,
    },
    { name: 'list-search', floor: true, method: 'GET', path: () => `${big}?search=login` },
    { name: 'list-page-2000', floor: true, method: 'GET', path: () => `${big}?page=2000&limit=50` },
    { name: 'get', floor: true, method: 'GET', path: () => `${big}/${fixture.big.prefix}-${pick(fixture.big.topLevel)}` },
    {
      name: 'create',
      floor: true,
      method: 'POST',
      path: () => small,
      contentType: 'application/json',
      body: () =>
        JSON.stringify({
          title: `Benchmark task ${++written}`,
          description: 'Created by npm run bench.',
          priority: 'medium',
          labelIds: [fixture.labelId],
        }),
    },
    {
      name: 'patch',
      floor: true,
      method: 'PATCH',
      path: smallTask,
      contentType: 'application/json',
      body: () =>
        JSON.stringify({
          title: `Renamed by the benchmark ${++written}`,
          priority: 'high',
          statusId: fixture.small.statusIds[pick(fixture.small.statusIds.length) - 1],
        }),
    },
    {
      name: 'comment',
      floor: true,
      method: 'POST',
      path: () => `${smallTask()}/comments`,
      contentType: 'application/json',
      body: () => JSON.stringify({ content: `Benchmark comment ${++written}` }),
    },
    {
      name: 'upload-100kb',
      floor: false,
      method: 'POST',
      path: () => `${smallTask()}/attachments`,
      contentType: `multipart/form-data; boundary=${BOUNDARY}`,
      body: () => upload,
    },
  ];
}

/** Extra list sizes whose statement counts must equal the default list's. */
export function pageSizeProbes(fixture: BenchFixture): Scenario[] {
  return [1, 100].map((limit) => ({
    name: `list-limit-${limit}`,
    floor: true,
    method: 'GET',
    path: () => `/v1/public/${fixture.big.slug}/tasks?limit=${limit}`,
  }));
}
