import type { Db } from '../db/client';
import { Prisma } from '../db/generated/client';
import { badRequest } from '../errors';
import { MAX_MINUTE_RANGE_HOURS, MAX_USAGE_DAYS, MAX_USAGE_TOP, type Granularity, type Usage, type UsageQuery } from '../schemas/usage';
import { addHistograms, emptyHistogram, percentile } from './histogram';
import { STATUS_CLASSES, type StatusClass } from './status-class';

const HOUR_MS = 3_600_000;
const TOP = MAX_USAGE_TOP;

// Per-minute counts answer minute buckets; hour and day buckets are read from the per-hour counts.
const SOURCE: Record<Granularity, Prisma.Sql> = {
  minute: Prisma.raw('request_log.usage_minute'),
  hour: Prisma.raw('request_log.usage_hour'),
  day: Prisma.raw('request_log.usage_hour'),
};

export interface UsageFilter extends Omit<UsageQuery, 'keyId' | 'appId'> {
  principalId?: string;
  principalKind?: 'key' | 'app';
}

interface Counts {
  requests: number;
  classes: Record<StatusClass, number>;
  histogram: number[];
}

type Group = { status_class: StatusClass; requests: number; histogram: number[] };

/**
 * A workspace's usage over a range: buckets of the granularity, and the keys,
 * apps and operations with their counts, all from the per-minute and per-hour
 * counts every flush adds to (server/request-log/write.ts). Percentiles are read
 * from the summed duration histograms, so they hold across processes and instances.
 */
export async function usageReport(db: Db, workspaceId: string, filter: UsageFilter): Promise<Usage> {
  const { since, until } = range(filter);
  const source = SOURCE[filter.granularity];
  const conditions = [Prisma.sql`workspace_id = ${workspaceId}::uuid`, Prisma.sql`bucket >= ${since}`, Prisma.sql`bucket < ${until}`];
  if (filter.principalId) conditions.push(Prisma.sql`principal_id = ${filter.principalId}::uuid`);
  if (filter.principalKind) conditions.push(Prisma.sql`principal_kind = ${filter.principalKind}`);
  if (filter.route) conditions.push(Prisma.sql`route = ${filter.route}`);
  const where = Prisma.join(conditions, ' AND ');
  const [buckets, keys, routes] = await Promise.all([
    db.$queryRaw<(Group & { start: Date })[]>`
      SELECT date_trunc(${filter.granularity}, bucket, 'UTC') AS start, status_class, sum(requests)::int AS requests,
        request_log.sum_histograms(histogram) AS histogram
      FROM ${source} WHERE ${where} GROUP BY 1, 2 ORDER BY 1`,
    db.$queryRaw<(Group & { principal_id: string; principal_kind: 'key' | 'app' })[]>`
      SELECT principal_id::text, principal_kind, status_class, sum(requests)::int AS requests, request_log.sum_histograms(histogram) AS histogram
      FROM ${source} WHERE ${where} GROUP BY 1, 2, 3`,
    db.$queryRaw<(Group & { method: string; route: string })[]>`
      SELECT method, route, status_class, sum(requests)::int AS requests, request_log.sum_histograms(histogram) AS histogram
      FROM ${source} WHERE ${where} GROUP BY 1, 2, 3`,
  ]);
  const total = emptyCounts();
  for (const row of buckets) add(total, row);
  return {
    granularity: filter.granularity,
    since: since.toISOString(),
    until: until.toISOString(),
    total: view(total),
    buckets: [...grouped(buckets, (row) => row.start.toISOString())].map(([start, counts]) => ({ start, ...view(counts) })),
    keys: top(grouped(keys, (row) => `${row.principal_kind} ${row.principal_id}`)).map(([name, counts]) => {
      const [kind, id] = name.split(' ') as [string, string];
      return { keyId: kind === 'key' ? id : null, appId: kind === 'app' ? id : null, ...view(counts) };
    }),
    routes: top(grouped(routes, (row) => `${row.method} ${row.route}`)).map(([name, counts]) => {
      const space = name.indexOf(' ');
      return { method: name.slice(0, space), route: name.slice(space + 1), ...view(counts) };
    }),
  };
}

/** The range asked for: the last 24 hours unless said, within the last 90 days, per minute for a day at most. */
function range(filter: UsageFilter): { since: Date; until: Date } {
  const until = filter.until ?? new Date();
  const since = filter.since ?? new Date(until.getTime() - 24 * HOUR_MS);
  const days = MAX_USAGE_DAYS * 24 * HOUR_MS;
  if (since >= until) throw badRequest('since: must be before until');
  if (since.getTime() < Date.now() - days - HOUR_MS) throw badRequest(`since: must be within the last ${MAX_USAGE_DAYS} days`);
  if (until.getTime() - since.getTime() > days) throw badRequest(`until: must be at most ${MAX_USAGE_DAYS} days after since`);
  if (filter.granularity === 'minute' && until.getTime() - since.getTime() > MAX_MINUTE_RANGE_HOURS * HOUR_MS)
    throw badRequest(`granularity: must be hour or day for a range of more than ${MAX_MINUTE_RANGE_HOURS} hours`);
  return { since, until };
}

function emptyCounts(): Counts {
  return { requests: 0, classes: { '2xx': 0, '4xx': 0, '429': 0, '5xx': 0 }, histogram: emptyHistogram() };
}

function add(counts: Counts, row: Group): void {
  counts.requests += row.requests;
  counts.classes[row.status_class] += row.requests;
  addHistograms(counts.histogram, row.histogram);
}

function grouped<T extends Group>(rows: T[], name: (row: T) => string): Map<string, Counts> {
  const groups = new Map<string, Counts>();
  for (const row of rows) {
    const key = name(row);
    let counts = groups.get(key);
    if (!counts) groups.set(key, (counts = emptyCounts()));
    add(counts, row);
  }
  return groups;
}

function top(groups: Map<string, Counts>): [string, Counts][] {
  return [...groups].sort(([, a], [, b]) => b.requests - a.requests).slice(0, TOP);
}

function view(counts: Counts) {
  return {
    requests: counts.requests,
    ...Object.fromEntries(STATUS_CLASSES.map((name) => [name, counts.classes[name]])),
    p50Ms: percentile(counts.histogram, 0.5),
    p95Ms: percentile(counts.histogram, 0.95),
  } as Usage['total'];
}
