// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { BOOT_CONFIG_ID, inlinedConfig } from './inlined-config';

function page(block: string): Document {
  return new DOMParser().parseFromString(`<!doctype html><html><head>${block}</head></html>`, 'text/html');
}

describe('the configuration inlined in index.html', () => {
  it('is read from the JSON block the server writes, escapes included', () => {
    const doc = page(
      `<script type="application/json" id="${BOOT_CONFIG_ID}">` +
        '{"networks":["mainnet","sandboxnet"],"sandbox_mode":true,"sentry_dsn":"\\u003c/script\\u003e"}</script>',
    );
    const config = inlinedConfig(doc);
    expect(config?.networks).toEqual(['mainnet', 'sandboxnet']);
    expect(config?.sandbox_mode).toBe(true);
    expect(config?.sentry_dsn).toBe('</script>');
  });

  it('is undefined when the block is missing or unreadable, so that the app asks GET /v1/config', () => {
    expect(inlinedConfig(page(''))).toBeUndefined();
    const broken = `<script type="application/json" id="${BOOT_CONFIG_ID}">{"networks":</script>`;
    expect(inlinedConfig(page(broken))).toBeUndefined();
    const wrong = `<script type="application/json" id="${BOOT_CONFIG_ID}">{"networks":"x"}</script>`;
    expect(inlinedConfig(page(wrong))).toBeUndefined();
  });
});
