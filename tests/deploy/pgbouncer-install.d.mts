export declare const PGBOUNCER: string;
