/** The fixed lifetimes the page offers; apart from the key schemas so the browser bundle can import it. */
export const EXPIRY_DAYS = [30, 90, 365] as const;
