import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import DarkModeIcon from '@mui/icons-material/DarkMode';
import LightModeIcon from '@mui/icons-material/LightMode';
import { useThemeMode } from './useThemeMode';

/**
 * Toggle button for the theme. Accessible name "Dark theme", pressed while the dark theme is on.
 */
export function ThemeSwitch() {
  const { dark, toggle } = useThemeMode();
  return (
    <Tooltip describeChild title={dark ? 'Switch to light theme' : 'Switch to dark theme'}>
      <IconButton color="inherit" aria-label="Dark theme" aria-pressed={dark} onClick={toggle}>
        {dark ? <DarkModeIcon /> : <LightModeIcon />}
      </IconButton>
    </Tooltip>
  );
}
