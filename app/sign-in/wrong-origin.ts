/**
 * Why the browser's request was refused when the page is open at another address than the
 * app's (127.0.0.1 for localhost, say): sign-in and setup accept only the app's own origin.
 */
export function wrongOriginMessage(pageOrigin: string, appUrl: string, path: string): string {
  return (
    `This page is open at ${pageOrigin}, but the app's address is ${new URL(appUrl).origin}: sign-in and setup ` +
    `accept requests only from the app's own address, so this one was refused. Open ${appUrl}${path} and try again.`
  );
}

export interface AppAddress {
  appUrl: string;
  appOrigins: string[];
}

/** The message for a refused (403) request from the page, or null when the page is at the app's address. */
export function refusedOriginMessage(address: AppAddress, path: string): string | null {
  const pageOrigin = window.location.origin;
  return address.appOrigins.includes(pageOrigin) ? null : wrongOriginMessage(pageOrigin, address.appUrl, path);
}
