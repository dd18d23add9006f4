/**
 * MUI's `createTheme` and `ThemeProvider` choose at run time between the classic theme and the CSS
 * variables theme (`cssVariables` / `colorSchemes`), so both stay in the boot chunk although Michelscope
 * only ever creates classic themes (features/theme/create-app-theme.ts: one palette per mode, switched in
 * React). The CSS variables half (createThemeWithVars, CssVarsProvider, useCurrentColorScheme,
 * InitColorSchemeScript, the CSS variable parser) is ~25 kB minified, ~6 kB brotli.
 *
 * This build plugin resolves the two imports through which that half is reached from `createTheme.mjs`
 * and `ThemeProvider.mjs` to a stub that throws if it is ever called (a CSS variables theme would be a
 * change of design: remove the plugin then). Other importers (the `@mui/material/styles` barrel's
 * `extendTheme`, `CssVarsProvider` exports) are left alone. A test (mui-without-css-vars.test.ts) checks
 * that the installed MUI still imports those files as this plugin expects.
 */
import type { Plugin } from 'vite';

const STUB = '\0michelscope-mui-without-css-vars';

/** The MUI modules whose CSS variables import is replaced, and the specifier they import it with. */
export const REPLACED_IMPORTS: Record<string, string> = {
  'createTheme.mjs': './createThemeWithVars.mjs',
  'ThemeProvider.mjs': './ThemeProviderWithVars.mjs',
};

const IMPORTER = /[\\/]@mui[\\/]material[\\/]styles[\\/]([A-Za-z]+\.mjs)$/;

const STUB_SOURCE = `
const unsupported = () => {
  throw new Error('MUI CSS variables themes are left out of this build (apps/web/build/mui-without-css-vars.ts)');
};
export default unsupported;
export const CssVarsProvider = unsupported;
`;

export function muiWithoutCssVars(): Plugin {
  return {
    name: 'michelscope-mui-without-css-vars',
    apply: 'build',
    enforce: 'pre',
    resolveId(source, importer) {
      const file = importer ? IMPORTER.exec(importer)?.[1] : undefined;
      return file !== undefined && REPLACED_IMPORTS[file] === source ? STUB : null;
    },
    load(id) {
      return id === STUB ? STUB_SOURCE : null;
    },
  };
}
