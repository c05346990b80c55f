/**
 * A state-changing request must come from the app's own pages: browsers always
 * send Origin on such requests, and another site cannot forge it.
 */
export function isSameOrigin(headers: Headers, appOrigins: string[]): boolean {
  const origin = headers.get('origin');
  return origin !== null && appOrigins.includes(origin);
}
