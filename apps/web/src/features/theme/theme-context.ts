import { createContext } from 'react';

export interface ThemeModeValue {
  dark: boolean;
  setDark: (dark: boolean) => void;
  toggle: () => void;
}

export const ThemeModeContext = createContext<ThemeModeValue | null>(null);
