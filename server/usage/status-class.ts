/**
 * How usage counts answers: 2xx holds every answer that is no error (304 Not
 * Modified included), 429 the rate limit's refusals apart from the other 4xx.
 */
export const STATUS_CLASSES = ['2xx', '4xx', '429', '5xx'] as const;
export type StatusClass = (typeof STATUS_CLASSES)[number];

export function statusClassOf(status: number): StatusClass {
  if (status === 429) return '429';
  if (status >= 500) return '5xx';
  if (status >= 400) return '4xx';
  return '2xx';
}
