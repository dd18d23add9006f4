/**
 * MUI Button looks on a ButtonBase, for the links of the header and home (the first screens): MUI's
 * Button brings CircularProgress (its `loading` state) with it, ~3 kB that every first visit would
 * download for a few links. Same typography, padding, radius, colours, hover and transitions as
 * `<Button color="inherit">` (text) and `<Button variant="outlined" size="small">`; ButtonBase gives the
 * ripple and the keyboard focus ripple (`focusRipple`).
 */
import type { SxProps, Theme } from '@mui/material/styles';

const base = (theme: Theme) => ({
  ...theme.typography.button,
  minWidth: '64px',
  borderRadius: `${theme.shape.borderRadius}px`,
  transition: theme.transitions.create(['background-color', 'box-shadow', 'border-color', 'color'], {
    duration: theme.transitions.duration.short,
  }),
});

/** `<Button color="inherit">`. */
export const TEXT_BUTTON: SxProps<Theme> = (theme) => ({
  ...base(theme),
  padding: '6px 8px',
  '&:hover': {
    textDecoration: 'none',
    backgroundColor: theme.palette.action.hover,
    '@media (hover: none)': { backgroundColor: 'transparent' },
  },
});

/** `<Button variant="outlined" size="small">` (primary). */
export const OUTLINED_SMALL_BUTTON: SxProps<Theme> = (theme) => {
  const main = theme.palette.primary.main;
  return {
    ...base(theme),
    fontSize: theme.typography.pxToRem(13),
    padding: '3px 9px',
    color: main,
    border: `1px solid ${theme.alpha(main, 0.5)}`,
    '&:hover': {
      textDecoration: 'none',
      borderColor: main,
      backgroundColor: theme.alpha(main, theme.palette.action.hoverOpacity),
      '@media (hover: none)': { backgroundColor: 'transparent' },
    },
    '&.Mui-disabled': {
      color: theme.palette.action.disabled,
      borderColor: theme.palette.action.disabledBackground,
    },
  };
};

/** Button's `startIcon` of a small button (a span before the label). */
export const SMALL_START_ICON: SxProps<Theme> = {
  display: 'inherit',
  mr: 1,
  ml: '-2px',
  '& > *:nth-of-type(1)': { fontSize: 18 },
};
