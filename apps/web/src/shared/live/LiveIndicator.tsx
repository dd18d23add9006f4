import { useParams } from 'react-router';
import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import Typography from '@mui/material/Typography';
import { useStartNetwork } from '../config/chosen-network';
import { useAppConfig } from '../config/useAppConfig';
import { formatNumber } from '../format/format';
import { TEXT_BUTTON } from '../ui/button-look';
import { useLiveChannel, useLiveStatus } from './useLive';

const LABEL = { live: 'Live', connecting: 'Connecting', paused: 'Paused' } as const;

/**
 * The header's live indicator for the page's network (the route's, else the start network): a dot and
 * 'Live' while the stream is open, with the indexed head level it last announced; 'Paused' with 'Retry' after
 * the stream failed. The status text is a polite live region; the level is not (it changes every block).
 * The dot pulses only when the user has not asked for reduced motion.
 */
/** Visually hidden below the `sm` breakpoint, still read by screen readers. */
const PHONE_HIDDEN = {
  position: { xs: 'absolute', sm: 'static' },
  width: { xs: '1px', sm: 'auto' },
  height: { xs: '1px', sm: 'auto' },
  overflow: { xs: 'hidden', sm: 'visible' },
  clip: { xs: 'rect(0 0 0 0)', sm: 'auto' },
} as const;

export function LiveIndicator() {
  const config = useAppConfig();
  const params = useParams();
  const start = useStartNetwork(config).network;
  const network = params.network && config.networks.includes(params.network) ? params.network : start;
  const channel = useLiveChannel(network ?? undefined);
  const { status, level } = useLiveStatus(channel);
  if (!channel || !network) return null;
  const colour =
    status === 'live' ? 'success.main' : status === 'paused' ? 'warning.main' : 'action.disabled';
  return (
    <Box
      role="group"
      aria-label={`Live updates of ${network}`}
      data-testid="live-indicator"
      data-status={status}
      sx={{
        display: 'flex',
        alignItems: 'center',
        gap: 0.75,
        mx: { xs: 0.25, sm: 0.5 },
        whiteSpace: 'nowrap',
      }}
    >
      <Box
        aria-hidden
        sx={{
          width: 8,
          height: 8,
          borderRadius: '50%',
          bgcolor: colour,
          flexShrink: 0,
          '@media (prefers-reduced-motion: no-preference)':
            status === 'live'
              ? {
                  animation: 'ms-live-pulse 2s ease-in-out infinite',
                  '@keyframes ms-live-pulse': { '0%, 100%': { opacity: 1 }, '50%': { opacity: 0.35 } },
                }
              : {},
        }}
      />
      <Typography
        component="span"
        variant="body2"
        role="status"
        aria-live="polite"
        // on a phone the dot alone shows (the header has no room): the word stays for screen readers
        sx={status === 'paused' ? undefined : PHONE_HIDDEN}
      >
        {LABEL[status]}
      </Typography>
      {level !== undefined && status !== 'paused' ? (
        <Typography
          component="span"
          variant="body2"
          color="text.secondary"
          data-testid="live-level"
          aria-label={`head level ${level}`}
          sx={{ display: { xs: 'none', sm: 'inline' } }}
        >
          {formatNumber(level)}
        </Typography>
      ) : null}
      {status === 'paused' ? (
        <ButtonBase focusRipple onClick={() => channel.retry()} sx={TEXT_BUTTON}>
          Retry
        </ButtonBase>
      ) : null}
    </Box>
  );
}
