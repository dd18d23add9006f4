import { useRef, useState, type KeyboardEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import Stack from '@mui/material/Stack';
import type { Theme } from '@mui/material/styles';
import { headQuery } from '../../api/queries';
import { SyncDot } from './SyncDot';
import { syncStatusByNetwork } from './sync-status';

interface Props {
  networks: readonly string[];
  value: string;
  onChange: (network: string) => void;
}

/**
 * The look of MUI's small, primary, exclusive ToggleButtonGroup (joined outlined buttons, the pressed one
 * tinted) on ButtonBase: the MUI group and its roving focus are ~3 kB of home's first download.
 */
const toggleStyle = (theme: Theme, index: number, count: number, pressed: boolean) => {
  const radius = `${theme.shape.borderRadius}px`;
  const main = theme.palette.primary.main;
  const { selectedOpacity, hoverOpacity } = theme.palette.action;
  return {
    ...theme.typography.button,
    fontSize: theme.typography.pxToRem(13),
    textTransform: 'none',
    padding: '7px 16px',
    border: `1px solid ${theme.palette.divider}`,
    borderRadius: 0,
    ...(index === 0 ? { borderTopLeftRadius: radius, borderBottomLeftRadius: radius } : {}),
    ...(index === count - 1 ? { borderTopRightRadius: radius, borderBottomRightRadius: radius } : {}),
    ...(index > 0 ? { marginLeft: '-1px', borderLeftColor: 'transparent' } : {}),
    color: pressed ? main : theme.palette.action.active,
    backgroundColor: pressed ? theme.alpha(main, selectedOpacity) : 'transparent',
    '&:hover': {
      textDecoration: 'none',
      backgroundColor: pressed
        ? theme.alpha(main, selectedOpacity + hoverOpacity)
        : theme.palette.action.hover,
      '@media (hover: none)': {
        backgroundColor: pressed ? theme.alpha(main, selectedOpacity) : 'transparent',
      },
    },
  };
};

/**
 * One toggle button per configured network, each with its sync dot; /v1/head is polled every 30 s.
 * A button's accessible name is its network name; the dot next to the name is an image named
 * "{network} synced" or "{network} unsynced". The group is one tab stop: the arrow keys (and Home / End)
 * move the focus between the buttons, Space or Enter presses one.
 */
export function NetworkToggle({ networks, value, onChange }: Props) {
  const heads = useQuery(headQuery());
  const status = syncStatusByNetwork(networks, heads.data, heads.isError);
  const buttons = useRef<(HTMLButtonElement | null)[]>([]);
  const [focusable, setFocusable] = useState(0);

  const onKeyDown = (event: KeyboardEvent, index: number) => {
    const last = networks.length - 1;
    const next =
      event.key === 'ArrowRight' || event.key === 'ArrowDown'
        ? index >= last
          ? 0
          : index + 1
        : event.key === 'ArrowLeft' || event.key === 'ArrowUp'
          ? index <= 0
            ? last
            : index - 1
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? last
              : null;
    if (next === null) return;
    event.preventDefault();
    buttons.current[next]?.focus();
  };

  return (
    <Box
      role="group"
      aria-label="Network"
      sx={(theme) => ({ display: 'flex', flexWrap: 'wrap', borderRadius: `${theme.shape.borderRadius}px` })}
    >
      {networks.map((network, index) => {
        const pressed = network === value;
        return (
          <ButtonBase
            key={network}
            ref={(el: HTMLButtonElement | null) => {
              buttons.current[index] = el;
            }}
            focusRipple
            aria-pressed={pressed}
            aria-label={network}
            value={network}
            tabIndex={index === Math.min(focusable, networks.length - 1) ? 0 : -1}
            onFocus={() => setFocusable(index)}
            onKeyDown={(event) => onKeyDown(event, index)}
            onClick={() => {
              if (!pressed) onChange(network);
            }}
            sx={(theme) => toggleStyle(theme, index, networks.length, pressed)}
          >
            <Stack direction="row" sx={{ alignItems: 'center', gap: 1 }}>
              <SyncDot network={network} status={status.get(network) ?? 'unsynced'} />
              <span>{network}</span>
            </Stack>
          </ButtonBase>
        );
      })}
    </Box>
  );
}
