/** The repository's root folder. */
export const ROOT: string;
/** The server bundle's entries: name → source path relative to the repository. */
export const SERVER_ENTRIES: Record<string, string>;
/**
 * Bundles `entries` (name → source path relative to the repository) into `outdir` as `<name>.mjs`: plain
 * JavaScript that Node starts without transpiling (scripts/bundle-node.mjs).
 */
export function bundleNode(opts: { entries: Record<string, string>; outdir: string }): Promise<void>;
