import Link from 'next/link';
import { settingsCaller } from '@/server/settings/router';
import { USAGE_RANGES, rangeOf } from '@/server/settings/usage-ranges';
import { Section } from '../../ui/app-shell';
import { exactUtc } from '../../ui/time-format';
import { formatCount, formatMs, formatRate } from '../activity/format';
import { BarChart, type Series } from './bar-chart';
import { RangePicker } from './range-picker';
import { timeline } from './timeline';
import { errorsOf, TopTable } from './top-table';
import styles from './usage.module.css';

export interface UsageSearchParams {
  workspace?: string | string[];
  range?: string | string[];
}

const CLASSES: (Series & { key: '2xx' | '4xx' | '429' | '5xx' })[] = [
  { key: '2xx', name: '2xx', tone: 'ok' },
  { key: '4xx', name: '4xx', tone: 'clientError' },
  { key: '429', name: '429', tone: 'limited' },
  { key: '5xx', name: '5xx', tone: 'serverError' },
];

/** How many rows each ranking shows; the report holds up to 100. */
const TOP = 10;

const formatPercent = (value: number) => `${value >= 10 || value === 0 ? Math.round(value) : value.toFixed(1)} %`;

/** The range's figures, charts and rankings, all from one usage report. */
export async function UsageReport({
  slug,
  searchParams,
  requestHeaders,
}: {
  slug: string;
  searchParams: Promise<UsageSearchParams>;
  requestHeaders: Headers;
}) {
  const range = rangeOf((await searchParams).range);
  const report = await settingsCaller({ headers: requestHeaders }).usage.report({ workspace: slug, range });
  const buckets = timeline(report);
  const from = USAGE_RANGES[range].since;
  const bars = (values: (bucket: (typeof buckets)[number]) => number[]) =>
    buckets.map((bucket) => ({ label: exactUtc(bucket.start), values: values(bucket) }));
  const names = new Map(report.names.map((principal) => [principal.id, principal.name]));
  const { total } = report;
  return (
    <>
      <RangePicker workspace={slug} current={range} />
      <dl className={styles.figures} aria-label="In this range">
        <div>
          <dt>Requests</dt>
          <dd>{formatCount(total.requests)}</dd>
        </div>
        <div>
          <dt>Error rate</dt>
          <dd>{formatRate(errorsOf(total), total.requests)}</dd>
        </div>
        <div>
          <dt>p95 duration</dt>
          <dd>{formatMs(total.p95Ms)}</dd>
        </div>
        <div>
          <dt>Rate-limited (429)</dt>
          <dd>{formatCount(total['429'])}</dd>
        </div>
      </dl>

      <Section id="requests-heading" title="Requests" description={`Per ${report.granularity} (UTC), stacked by status class.`}>
        <BarChart
          title="Requests by status class"
          series={CLASSES}
          bars={bars((bucket) => CLASSES.map(({ key }) => bucket[key]))}
          format={formatCount}
          from={from}
          summary={`${formatCount(total.requests)} in all; ${CLASSES.map(({ key }) => `${key} ${formatCount(total[key])}`).join(', ')}`}
        />
        <ul className={styles.legend} aria-label="Requests by status class">
          {CLASSES.map(({ key, tone }) => (
            <li key={key}>
              <svg className={styles.swatch} viewBox="0 0 10 10" aria-hidden="true">
                <rect className={styles[tone]} width={10} height={10} />
              </svg>
              {key} <strong>{formatCount(total[key])}</strong>
            </li>
          ))}
        </ul>
      </Section>

      <Section
        id="health-heading"
        title="Errors and duration"
        description="Errors are 4xx, 429 and 5xx answers; durations from the request to its answer."
      >
        <div className={styles.pair}>
          <BarChart
            title="Error rate"
            series={[{ name: 'Errors', tone: 'serverError' }]}
            bars={bars((bucket) => [bucket.requests ? (errorsOf(bucket) / bucket.requests) * 100 : 0])}
            format={formatPercent}
            from={from}
            summary={`${formatRate(errorsOf(total), total.requests)} of all requests`}
          />
          <BarChart
            title="p95 duration"
            series={[{ name: 'p95', tone: 'accent' }]}
            bars={bars((bucket) => [bucket.p95Ms ?? 0])}
            format={(ms) => formatMs(ms)}
            from={from}
            summary={`${formatMs(total.p95Ms)} over the whole range`}
          />
        </div>
      </Section>

      <Section id="top-keys-heading" title="Top keys and apps" description="The keys and connected apps that made the most requests.">
        <TopTable
          caption="Top keys and apps"
          label="Key or app"
          rows={report.keys.slice(0, TOP)}
          rowKey={(row) => row.keyId ?? row.appId ?? ''}
          name={(row) => (
            <Link
              href={`/settings/${row.keyId ? 'api-keys' : 'apps'}/${row.keyId ?? row.appId}?workspace=${encodeURIComponent(slug)}`}
              prefetch={false}
            >
              {names.get((row.keyId ?? row.appId)!) ?? (row.keyId ? 'A deleted key' : 'A removed app')}
            </Link>
          )}
        />
      </Section>

      <Section id="top-routes-heading" title="Top routes" description="The operations called the most, REST routes and MCP tools alike.">
        <TopTable
          caption="Top routes"
          label="Route"
          rows={report.routes.slice(0, TOP)}
          rowKey={(row) => `${row.method} ${row.route}`}
          name={(row) => (
            <code>
              {row.method} {row.route}
            </code>
          )}
        />
      </Section>
    </>
  );
}
