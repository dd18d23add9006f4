import IconButton from '@mui/material/IconButton';
import DarkModeIcon from '@mui/icons-material/DarkMode';
import LightModeIcon from '@mui/icons-material/LightMode';
import { useThemeMode } from './useThemeMode';

/**
 * Toggle button for the theme. Accessible name "Dark theme", pressed while the dark theme is on; the
 * browser's own tooltip (title) says what a click does (MUI's Tooltip would add Popper to every page).
 */
export function ThemeSwitch() {
  const { dark, toggle } = useThemeMode();
  return (
    <IconButton
      color="inherit"
      aria-label="Dark theme"
      aria-pressed={dark}
      title={dark ? 'Switch to light theme' : 'Switch to dark theme'}
      onClick={toggle}
    >
      {dark ? <DarkModeIcon /> : <LightModeIcon />}
    </IconButton>
  );
}
