import { niceCeiling } from './nice-scale';
import styles from './usage.module.css';

export interface Series {
  name: string;
  /** The class of its colour in usage.module.css. */
  tone: 'ok' | 'clientError' | 'limited' | 'serverError' | 'accent';
}

export interface Bar {
  /** What hovering the bar says of its time: the exact UTC bucket. */
  label: string;
  values: number[];
}

const BAR_WIDTH = 10;
const HEIGHT = 100;

/**
 * Bars over time, one per bucket, each stacked from its series' values, drawn as SVG
 * by the server: no script, nothing fetched, and the figures are in the HTML for the
 * reader who hovers (a title per bar) and for screen readers (the label). The
 * drawing stretches to its box; the axis' text is HTML, so it keeps its size on a phone.
 */
export function BarChart({
  title,
  series,
  bars,
  format,
  from,
  summary,
}: {
  title: string;
  series: Series[];
  bars: Bar[];
  format: (value: number) => string;
  /** The left end of the time axis; the right end is now. */
  from: string;
  summary: string;
}) {
  const top = niceCeiling(Math.max(0, ...bars.map((bar) => bar.values.reduce((sum, value) => sum + value, 0))));
  const scale = (value: number) => (value / top) * HEIGHT;
  return (
    <figure className={styles.chart}>
      <figcaption className={styles.chartTitle}>{title}</figcaption>
      <div className={styles.plot}>
        <div className={styles.yAxis} aria-hidden="true">
          <span>{format(top)}</span>
          <span>{format(top / 2)}</span>
          <span>{format(0)}</span>
        </div>
        <svg
          className={styles.drawing}
          viewBox={`0 0 ${bars.length * BAR_WIDTH} ${HEIGHT}`}
          preserveAspectRatio="none"
          role="img"
          aria-label={`${title}: ${summary}`}
        >
          {[0, HEIGHT / 2, HEIGHT].map((y) => (
            <line key={y} className={styles.grid} x1={0} x2={bars.length * BAR_WIDTH} y1={y} y2={y} vectorEffect="non-scaling-stroke" />
          ))}
          {bars.map((bar, index) => (
            <g key={bar.label}>
              <title>{`${bar.label}: ${series.map((each, i) => `${each.name} ${format(bar.values[i] ?? 0)}`).join(', ')}`}</title>
              <rect className={styles.hover} x={index * BAR_WIDTH} y={0} width={BAR_WIDTH} height={HEIGHT} />
              {stack(bar.values).map(({ from: base, value }, i) =>
                value > 0 ? (
                  <rect
                    key={series[i]!.name}
                    className={styles[series[i]!.tone]}
                    x={index * BAR_WIDTH + 1}
                    y={HEIGHT - scale(base + value)}
                    width={BAR_WIDTH - 2}
                    height={scale(value)}
                  />
                ) : null,
              )}
            </g>
          ))}
        </svg>
      </div>
      <div className={styles.xAxis} aria-hidden="true">
        <span>{from}</span>
        <span>now</span>
      </div>
    </figure>
  );
}

/** Each value with the sum of those under it. */
function stack(values: number[]): { from: number; value: number }[] {
  let base = 0;
  return values.map((value) => {
    const part = { from: base, value };
    base += value;
    return part;
  });
}
