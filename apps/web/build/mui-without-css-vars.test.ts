import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createAppTheme } from '../src/features/theme/create-app-theme';
import { REPLACED_IMPORTS } from './mui-without-css-vars';

const require = createRequire(import.meta.url);
const stylesDir = path.join(path.dirname(require.resolve('@mui/material/package.json')), 'styles');

describe('MUI without its CSS variables theme (build)', () => {
  it('finds the imports it replaces in the installed MUI', () => {
    for (const [file, specifier] of Object.entries(REPLACED_IMPORTS)) {
      const source = readFileSync(path.join(stylesDir, file), 'utf8');
      expect(source, file).toContain(`from "${specifier}"`);
    }
  });

  it('is safe: the app creates classic themes only (no colorSchemes, no CSS variables)', () => {
    for (const dark of [true, false]) {
      const theme = createAppTheme(dark) as unknown as Record<string, unknown>;
      expect('colorSchemes' in theme).toBe(false);
      expect(theme.vars).toBeUndefined();
    }
  });
});
