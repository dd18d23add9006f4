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
  });
}
