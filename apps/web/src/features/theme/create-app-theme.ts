import { createTheme, type Theme } from '@mui/material/styles';

/** The Michelscope MUI theme for one mode; dark is the default look. */
export function createAppTheme(dark: boolean): Theme {
  return createTheme({
    palette: dark
      ? {
          mode: 'dark',
          primary: { main: '#4fc3a1' },
          secondary: { main: '#f2b84b' },
          background: { default: '#16181d', paper: '#1e2128' },
        }
      : {
          mode: 'light',
          primary: { main: '#0f7b61' },
          secondary: { main: '#a8650a' },
          background: { default: '#f5f6f8', paper: '#ffffff' },
        },
    shape: { borderRadius: 8 },
    typography: {
      fontFamily: 'Roboto, "Segoe UI", system-ui, -apple-system, sans-serif',
    },
    components: {
      MuiPaginationItem: {
        styleOverrides: {
          // on a phone, a page list ending in a six-digit page (a 2,000,000-key map: ‹ 1 2 3 4 5 … 200000 ›)
          // stays on one line (it wrapped its last arrow at 375 px); the items stay 32 px high, over 24 px wide
          root: ({ theme }) => ({
            [theme.breakpoints.down('sm')]: { minWidth: 28, margin: '0 1px', padding: '0 4px' },
          }),
        },
      },
    },
  });
}
