import { getContrastRatio } from '@mui/material/styles';
import { describe, expect, it } from 'vitest';
import { createAppTheme } from '../../features/theme/create-app-theme';
import { michelsonPalette } from './michelson-palette';

describe('michelsonPalette', () => {
  // Code is drawn on the theme's paper (the code view, the editor, the debugger): every token class
  // must be readable there at 13 px (WCAG AA, 4.5:1). axe found 4.2:1 for type names on dark paper.
  for (const dark of [true, false]) {
    it(`every token colour reads on the ${dark ? 'dark' : 'light'} theme's paper (4.5:1 or more)`, () => {
      const paper = createAppTheme(dark).palette.background.paper;
      const low = Object.entries(michelsonPalette(dark))
        .map(
          ([token, style]) => [token, Math.round(getContrastRatio(style.color, paper) * 100) / 100] as const,
        )
        .filter(([, ratio]) => ratio < 4.5);
      expect(low).toEqual([]);
    });
  }
});
