/**
 * How the web build groups modules into files (rolldown `codeSplitting.groups`), so that a page needs a
 * handful of requests instead of one per MUI component and shared helper. Rolldown's default puts every
 * combination of lazy screens that share modules in its own file: with 23 screens a contract tab loaded
 * ~50 files of 0.2-10 kB (each with ~1 kB of response headers). The groups, by priority:
 *
 * - `boot`: everything the entry imports (React, the router, MUI core, the shell, home and the search box,
 *   which every page shows: app/router/screens.tsx and the header import them statically);
 * - `codemirror`: the code viewer's editor, loaded when the reader clicks or searches in the code (the code
 *   tab and the failed code of operation errors show shared/micheline/MichelsonCode first);
 * - `contract`: the contract frame (title, tabs, tags, bookmark) of every account / contract tab, and what
 *   the code tab shares with other contract tabs (so that the code tab does not load `contract-more`);
 * - `contract-more`: what two or more account / contract / operation / big-map screens share otherwise
 *   (value trees, operation cards, pagination);
 * - the rest: rolldown's default (a screen's own modules with it; the form, chart and wallet libraries in
 *   files of their own, loaded only by the screens and dialogs that use them).
 */

/** What the grouping reads of a module (rolldown's ModuleInfo). */
export interface ModuleGraphInfo {
  importers: readonly string[];
  dynamicImporters: readonly string[];
  importedIds?: readonly string[];
}
export interface GraphContext {
  getModuleInfo(id: string): ModuleGraphInfo | null;
}

/** A `codeSplitting.groups` entry whose name is computed from the module graph. */
export interface GraphGroup {
  name: (id: string, ctx: GraphContext) => string | null;
  priority: number;
}

/** A package barrel that re-exports this many modules or more re-exports a whole package or area. */
export const FAN_OUT_BARREL = 20;

/**
 * Whether `importer` is a package's wide barrel (an `index.mjs` under node_modules re-exporting
 * FAN_OUT_BARREL modules or more, such as `@mui/system` or `@mui/material/styles`). Reachability does not
 * climb through one: Box imports `@mui/system`, which re-exports Grid and useMediaQuery, and
 * `@mui/material/styles`, which names the class names of InputBase and Select; through them every
 * module that shows a Box would "reach" those components and claim them for its group, although the
 * packages are `sideEffects: false` and what is not used is dropped.
 */
export function isWideBarrel(importer: string, ctx: GraphContext): boolean {
  if (!/[\\/]node_modules[\\/].*[\\/]index\.m?js$/.test(importer)) return false;
  return (ctx.getModuleInfo(importer)?.importedIds?.length ?? 0) >= FAN_OUT_BARREL;
}

/**
 * Every module from which `id` is statically reachable (`id` included): its static importers, transitively,
 * not through a wide barrel (see isWideBarrel).
 */
export function staticImporters(id: string, ctx: GraphContext): Set<string> {
  const seen = new Set([id]);
  const queue = [id];
  while (queue.length > 0) {
    const info = ctx.getModuleInfo(queue.pop()!);
    for (const importer of info?.importers ?? []) {
      if (!seen.has(importer) && !isWideBarrel(importer, ctx)) {
        seen.add(importer);
        queue.push(importer);
      }
    }
  }
  return seen;
}

/** The dynamic entries (lazy screens and components) from which `id` is statically reachable. */
export function entriesReaching(id: string, ctx: GraphContext): string[] {
  return [...staticImporters(id, ctx)].filter(
    (m) => (ctx.getModuleInfo(m)?.dynamicImporters.length ?? 0) > 0,
  );
}

/** A path under apps/web/src, as a pattern on module ids. */
export const srcPath = (pattern: string) =>
  new RegExp(`[\\\\/]src[\\\\/]${pattern.replace(/\//g, '[\\\\/]')}`);

/**
 * The modules that a module matched by `anchor` imports, directly or not, and those that an entry
 * matched by `sharedBy[0]` shares with another entry matched by `sharedBy[1]`.
 */
export function anchoredGroup(
  name: string,
  priority: number,
  anchor: RegExp,
  sharedBy?: [RegExp, RegExp],
): GraphGroup {
  return {
    name: (id, ctx) => {
      if ([...staticImporters(id, ctx)].some((m) => anchor.test(m))) return name;
      if (sharedBy) {
        const entries = entriesReaching(id, ctx);
        const first = entries.filter((e) => sharedBy[0].test(e));
        if (first.length > 0 && entries.some((e) => !first.includes(e) && sharedBy[1].test(e))) return name;
      }
      return null;
    },
    priority,
  };
}

/** The modules that two or more lazy entries share, all of them matched by `family`. */
export function familyGroup(name: string, priority: number, family: RegExp): GraphGroup {
  return {
    name: (id, ctx) => {
      const entries = entriesReaching(id, ctx);
      return entries.length >= 2 && entries.every((e) => family.test(e)) ? name : null;
    },
    priority,
  };
}
