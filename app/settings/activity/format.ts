/** How the usage figures read: counts with separators, shares and durations short. */
const counts = new Intl.NumberFormat('en-US');

export function formatCount(count: number): string {
  return counts.format(count);
}

/** `2.5 %` of `total`; a dash where nothing was counted, as a rate of nothing is no rate. */
export function formatRate(part: number, total: number): string {
  if (total === 0) return '—';
  const percent = (part / total) * 100;
  return `${percent === 0 || percent >= 10 ? Math.round(percent) : percent.toFixed(1)} %`;
}

export function formatMs(ms: number | null): string {
  if (ms === null) return '—';
  return ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`;
}
