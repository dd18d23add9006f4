import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin, type ProxyOptions, type UserConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { compression } from 'vite-plugin-compression2';
import { anchoredGroup, familyGroup, srcPath } from './build/chunk-groups';
import { muiWithoutCssVars } from './build/mui-without-css-vars';
import { routePreload } from './build/route-preload';
import { taquitoUtilsLazyBls } from './build/taquito-utils-lazy-bls';

/** Where `npm start` serves the API; the dev and preview servers forward these prefixes to it. */
const API_ORIGIN = 'http://localhost:8080';
/**
 * With a trailing slash, so that SPA pages such as /search?text=... and /mainnet/stats stay with Vite;
 * only service calls (/search/v1/..., /stats/v1/...) go to the server.
 */
const PROXIED = ['/v1/', '/rpc/', '/search/', '/stats/', '/metadata/'];

const proxy: Record<string, ProxyOptions> = Object.fromEntries(
  PROXIED.map((prefix) => [prefix, { target: API_ORIGIN, changeOrigin: true }]),
);

/** The account, contract, operation and big-map screens (they share the contract frame). */
const CONTRACT_SCREENS = srcPath('slices/(account|contract|operation|big-map)/');

/** How modules are grouped into files: see ./build/chunk-groups.ts. */
const CHUNK_GROUPS = [
  { name: 'boot', tags: ['$initial' as const], priority: 100 },
  {
    name: 'codemirror',
    test: /node_modules[\\/](@codemirror|@lezer|style-mod|w3c-keyname|crelt)[\\/]/,
    priority: 50,
  },
  // the contract frame, and the requests its route loaders start (with their API modules)
  anchoredGroup(
    'contract',
    10,
    srcPath('(slices/contract/ContractFrame\\.tsx|app/router/contract-route-data\\.ts)$'),
    [srcPath('slices/contract/code/CodePage\\.tsx$'), CONTRACT_SCREENS],
  ),
  familyGroup('contract-more', 5, CONTRACT_SCREENS),
];

/** dist-ssr/package.json: its files are ES modules wherever the build is copied (no package.json above it). */
const esmPackageJson: Plugin = {
  name: 'ssr-esm-package-json',
  generateBundle() {
    this.emitFile({ type: 'asset', fileName: 'package.json', source: '{ "type": "module" }\n' });
  },
};

/**
 * What the server runs of the web (`vite build --ssr`), for Node in dist-ssr, packages included: the page
 * renderer (src/ssr/entry-server.tsx, issue 18; apps/server runs it in a worker thread), and the API
 * requests each route's loader starts (src/app/router/route-fetches.ts; the server announces them as fetch
 * preloads), so that the server holds no copy of the web's routes.
 */
const SSR_BUILD: UserConfig = {
  plugins: [react(), muiWithoutCssVars(), esmPackageJson],
  publicDir: false,
  // its packages bundled in, so that a copy of the build anywhere (an operator's WEB_DIST_DIR) renders: with
  // them left in node_modules, a copy outside the checkout failed to load ("Cannot find package 'react-dom'")
  // and the server sent every page unrendered
  ssr: { noExternal: true },
  build: {
    outDir: 'dist-ssr',
    emptyOutDir: true,
    sourcemap: false,
    rolldownOptions: {
      input: {
        'entry-server': fileURLToPath(new URL('./src/ssr/entry-server.tsx', import.meta.url)),
        'route-fetches': fileURLToPath(new URL('./src/app/router/route-fetches.ts', import.meta.url)),
      },
    },
  },
};

export default defineConfig(({ isSsrBuild }) =>
  isSsrBuild
    ? SSR_BUILD
    : {
        plugins: [
          react(),
          // Leaves MUI's unused CSS variables theme out of the boot chunk.
          muiWithoutCssVars(),
          // Leaves @noble/curves' BLS12-381 (never used by the web app) out of the forms' chunk.
          taquitoUtilsLazyBls(),
          // Which chunks each route needs, for the server's <link rel="modulepreload"> in index.html.
          routePreload({
            screensFile: fileURLToPath(new URL('./src/app/router/screens.tsx', import.meta.url)),
          }),
          // Brotli and gzip files beside every text asset; the server sends them by accept-encoding.
          compression({ algorithms: ['brotliCompress', 'gzip'], threshold: 1024, logLevel: 'silent' }),
        ],
        build: {
          outDir: 'dist',
          emptyOutDir: true,
          sourcemap: true,
          rolldownOptions: { output: { codeSplitting: { groups: CHUNK_GROUPS } } },
        },
        server: { proxy },
        preview: { proxy },
      },
);
