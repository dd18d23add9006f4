import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import type { AppConfig } from './config';

/** Origins of http(s) URLs (the public RPC endpoints browsers are given), for connect-src. */
function origins(urls: string[]): string[] {
  const out = new Set<string>();
  for (const url of urls) {
    try {
      const u = new URL(url);
      if (u.protocol === 'http:' || u.protocol === 'https:') out.add(u.origin);
    } catch {
      // not a URL: nothing to allow
    }
  }
  return [...out];
}

/**
 * The Content-Security-Policy of the web app (sent with every response: the APIs' JSON and docs page too).
 * - scripts only from this origin; 'wasm-unsafe-eval' for octez.connect's libsodium (WebAssembly) and
 *   'unsafe-eval' for the entrypoint forms' JSON-schema validator (ajv compiles each contract's schema);
 *   no inline script runs (boot data may be inlined only as `<script type="application/json">`);
 * - styles inline too (MUI/emotion, CodeMirror and the octez.connect pairing UI inject `<style>`);
 * - images from https hosts (token thumbnails through the IPFS gateway, wallet icons), data: and blob:;
 * - connections to this origin, https/wss (node RPCs, octez.connect relays) and the configured public RPCs;
 * - never framed (clickjacking on a page with a wallet): frame-ancestors 'none' + X-Frame-Options DENY.
 */
export function contentSecurityPolicy(config: Pick<AppConfig, 'publicUrl' | 'networks'>) {
  const rpc = origins([config.publicUrl, ...config.networks.map((n) => n.publicRpcUrl)]);
  return {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'", "'wasm-unsafe-eval'", "'unsafe-eval'"],
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
    fontSrc: ["'self'", 'data:'],
    connectSrc: ["'self'", 'https:', 'wss:', ...rpc],
    workerSrc: ["'self'", 'blob:'],
    frameSrc: ["'self'", 'https:'],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
    upgradeInsecureRequests: null,
  };
}

/** Security headers on every response (@fastify/helmet): CSP, nosniff, frame denial, referrer policy. */
export async function registerSecurityHeaders(
  app: FastifyInstance,
  config: Pick<AppConfig, 'publicUrl' | 'networks'>,
): Promise<void> {
  await app.register(helmet, {
    global: true,
    contentSecurityPolicy: { useDefaults: false, directives: contentSecurityPolicy(config) },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    xContentTypeOptions: true,
    // wallets may open popups that talk back to this page (web wallets' sign-in windows)
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
    // the APIs and the node RPC are read by other sites' pages (CORS); images of tokens are not ours
    crossOriginResourcePolicy: { policy: 'cross-origin' },
    crossOriginEmbedderPolicy: false,
    // HTTPS and its HSTS are the reverse proxy's business (the product itself serves plain HTTP)
    strictTransportSecurity: false,
  });
}
