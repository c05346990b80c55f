/**
 * `--import tsx` turns Node's source maps on for every module loaded after it, when the
 * production server runs from source instead of the build's bundle (server/launch/bundle-server.ts),
 * as `npm run bench:cpu` runs another checkout. That costs heap for good: Node keeps each map it reads (on Node 20,
 * the map of every module that names one, as it loads: Next.js's own files and the
 * build's chunks), and Next.js, when it logs an error, indexes the map of the chunk the
 * error came from into a consumer kept as long as the map. After floods of requests
 * Next.js logs (server actions that do not exist), 190 MB of the 192 MB heap were live,
 * 178,000 of its objects source-map mappings, and the server ran out of memory on the
 * next burst (tests/hostile/memory.test.ts). Imported first, so that no module of
 * Next.js loads with them on; stack traces in the log name the built files' lines.
 */
process.setSourceMapsEnabled(false);
