/** `2026-11-22 14:03 UTC`: the same text on the server and in the browser, whatever their time zones. */
export function formatDate(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}
