/**
 * @taquito/utils (one ES module for the whole package) reads `bls12_381.longSignatures` at its top level,
 * for `verifySignature`'s BLS case. A property read at the top level may run a getter, so the bundler keeps
 * it, and with it the whole of @noble/curves' BLS12-381 (and, through the shared field code, the other
 * curves): ~40 kB brotli in the chunk that the operation page's debugger, the forms and the search box's
 * address checks load, although the web app never verifies a signature.
 *
 * This build plugin wraps that one read in a pure-annotated function call, so that it is dropped when
 * nothing uses it and stays (read on first load, as before) when something does. A test
 * (taquito-utils-lazy-bls.test.ts) checks that the installed @taquito/utils still has the line; if a new
 * version changes it, the build fails here rather than silently growing the chunk again.
 */
import type { Plugin } from 'vite';

/** The line as @taquito/utils' ES build has it. */
export const BLS_READ = 'const bls = bls12_381.longSignatures;';
/** What it becomes: the same value, read by a call the bundler may drop when `bls` is unused. */
export const LAZY_BLS_READ = 'const bls = /* @__PURE__ */ (() => bls12_381.longSignatures)();';

const TAQUITO_UTILS = /[\\/]@taquito[\\/]utils[\\/]dist[\\/]taquito-utils\.es6\.js$/;

/** The module's source with the read made droppable; throws when the read is not there. */
export function withLazyBls(code: string): string {
  if (!code.includes(BLS_READ)) {
    throw new Error(
      `@taquito/utils no longer reads BLS12-381 as "${BLS_READ}": see apps/web/build/taquito-utils-lazy-bls.ts`,
    );
  }
  return code.replace(BLS_READ, LAZY_BLS_READ);
}

export function taquitoUtilsLazyBls(): Plugin {
  return {
    name: 'michelscope-taquito-utils-lazy-bls',
    apply: 'build',
    transform(code, id) {
      return TAQUITO_UTILS.test(id) ? { code: withLazyBls(code), map: null } : null;
    },
  };
}
