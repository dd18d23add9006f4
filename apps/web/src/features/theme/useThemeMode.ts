import { useContext } from 'react';
import { ThemeModeContext, type ThemeModeValue } from './theme-context';

/** The current theme mode and its switch; only inside ThemeModeProvider. */
export function useThemeMode(): ThemeModeValue {
  const value = useContext(ThemeModeContext);
  if (!value) throw new Error('useThemeMode must be used inside ThemeModeProvider');
  return value;
}
