import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { createAppTheme } from './create-app-theme';
import { ThemeModeContext, type ThemeModeValue } from './theme-context';
import {
  browserStorage,
  readDarkFlag,
  writeDarkCookie,
  writeDarkFlag,
  type FlagStorage,
} from './theme-storage';

interface Props {
  children: ReactNode;
  /** Injected in tests; the browser's localStorage otherwise. */
  storage?: FlagStorage | null;
}

/** MUI theme + CssBaseline with the saved dark/light choice (dark by default). */
export function ThemeModeProvider({ children, storage }: Props) {
  const store = storage === undefined ? browserStorage() : storage;
  const [dark, setDarkState] = useState(() => readDarkFlag(store));

  const setDark = useCallback(
    (next: boolean) => {
      setDarkState(next);
      writeDarkFlag(store, next);
    },
    [store],
  );

  const value = useMemo<ThemeModeValue>(
    () => ({ dark, setDark, toggle: () => setDark(!dark) }),
    [dark, setDark],
  );
  const theme = useMemo(() => createAppTheme(dark), [dark]);
  // the browser's choice, for the server's rendering of the next page (not an injected test storage)
  useEffect(() => {
    if (storage === undefined) writeDarkCookie(dark);
  }, [storage, dark]);

  return (
    <ThemeModeContext value={value}>
      <ThemeProvider theme={theme}>
        <CssBaseline enableColorScheme />
        {children}
      </ThemeProvider>
    </ThemeModeContext>
  );
}
