/**
 * Page sizes the route loaders ask for, in a module of their own (no imports) so that the server's fetch
 * preloads (app/router/route-fetches.ts, built for the server into dist-ssr) read the same figures.
 */

/** Operations page size (workspace spec §9). */
export const OPG_PAGE_SIZE = 10;

/** Big-map keys and key history: 10 per page (workspace spec §9). */
export const BIG_MAP_PAGE_SIZE = 10;
