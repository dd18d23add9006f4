import { useParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import Typography from '@mui/material/Typography';
import CloudOffIcon from '@mui/icons-material/CloudOff';
import ErrorOutlineIcon from '@mui/icons-material/ErrorOutlineOutlined';
import SyncIcon from '@mui/icons-material/Sync';
import type { Head } from '@michelscope/api-types';
import type { LiveStatus } from '../../api/live';
import { headQuery } from '../../api/queries';
import { useStartNetwork } from '../config/chosen-network';
import { useAppConfig } from '../config/useAppConfig';
import { formatCompact, formatNumber } from '../format/format';
import { TEXT_BUTTON } from '../ui/button-look';
import { useLiveChannel, useLiveStatus } from './useLive';

/** What the indicator needs of a head: the sync fields of `GET /v1/head` and of the live `head` event. */
type HeadSync = Pick<Head, 'synced' | 'node_reachable' | 'lag' | 'failures'>;

export type IndicatorTone = 'live' | 'syncing' | 'unreachable' | 'failed' | 'connecting' | 'paused';

const FAILED_LABEL = { node: 'Node failed', indexer: 'Indexer failed', database: 'Database failed' } as const;

export interface IndicatorState {
  tone: IndicatorTone;
  /** The status word (a polite live region). */
  label: string;
  /** How far behind, e.g. '54 behind' (not a live region: it changes with every block). */
  lag?: string;
  /** The same as a number. */
  behind?: number;
  /** A failed part's error (issue 34), for the title. */
  detail?: string;
}

/**
 * What the indicator says: 'Live' only while the stream is open and the network's head is synced (within the
 * indexer's sync gap of the node's head); 'Syncing' with the levels behind; 'Node unreachable' when the API
 * cannot read the node's head; 'Node failed' / 'Indexer failed' when a part cannot store (issue 34: the
 * embedded node bakes nothing, the indexer cannot write; before everything else, a synced head included);
 * 'Connecting' while the stream opens or nothing is known; 'Paused'.
 */
export function indicatorState(status: LiveStatus, head: HeadSync | undefined): IndicatorState {
  if (status === 'paused') return { tone: 'paused', label: 'Paused' };
  if (status === 'connecting' || !head) return { tone: 'connecting', label: 'Connecting' };
  const failure = head.failures?.[0];
  if (failure)
    return {
      tone: 'failed',
      label: FAILED_LABEL[failure.part],
      detail: `${failure.message} (since ${failure.since})`,
    };
  if (head.synced) return { tone: 'live', label: 'Live' };
  if (head.node_reachable === false) return { tone: 'unreachable', label: 'Node unreachable' };
  return {
    tone: 'syncing',
    label: 'Syncing',
    ...(head.lag !== undefined && head.lag > 0
      ? { lag: `${formatNumber(head.lag)} behind`, behind: head.lag }
      : {}),
  };
}

const COLOUR: Record<IndicatorTone, string> = {
  live: 'success.main',
  syncing: 'info.main',
  unreachable: 'warning.main',
  failed: 'error.main',
  paused: 'warning.main',
  connecting: 'action.disabled',
};

/** The dot's pulse when a block is announced (once per level). */
const PULSE = 'ms-live-pulse';

/** Visually hidden below the `sm` breakpoint, still read by screen readers. */
const PHONE_HIDDEN = {
  position: { xs: 'absolute', sm: 'static' },
  width: { xs: '1px', sm: 'auto' },
  height: { xs: '1px', sm: 'auto' },
  overflow: { xs: 'hidden', sm: 'visible' },
  clip: { xs: 'rect(0 0 0 0)', sm: 'auto' },
} as const;

/**
 * The header's live indicator for the page's network (the route's, else the start network): a dot and
 * 'Live' while the stream is open and the index is synced, with the indexed head level it last announced;
 * 'Syncing · N behind' while the indexer catches up with the node and 'Node unreachable' (the levels in the
 * title); 'Paused' with 'Retry' after the stream failed. The sync state comes from the stream's head events (sent again when it changes),
 * else from the head list. The status word is a polite live region; the lag and the level are not (they
 * change every block). The dot pulses once for each level announced while live, unless the user asked for reduced motion.
 */
export function LiveIndicator() {
  const config = useAppConfig();
  const params = useParams();
  const start = useStartNetwork(config).network;
  const network = params.network && config.networks.includes(params.network) ? params.network : start;
  const channel = useLiveChannel(network ?? undefined);
  const { status, level, head } = useLiveStatus(channel);
  // the header shares the head list of the start network's choice, without polling on every page
  const heads = useQuery({ ...headQuery(), refetchInterval: false, staleTime: 30_000 });
  if (!channel || !network) return null;
  const sync = head ?? heads.data?.find((h) => h.network === network);
  const state = indicatorState(status, sync);
  const { tone } = state;
  // a phone's header has room for a mark only: the dot while live or connecting; behind, the sync icon and
  // the lag (compact); the node unreachable, the cloud-off icon: a shape, not only a colour
  const phoneIcon = tone === 'syncing' || tone === 'unreachable' || tone === 'failed';
  return (
    <Box
      role="group"
      aria-label={`Live updates of ${network}`}
      data-testid="live-indicator"
      data-status={status}
      data-sync={tone}
      // behind or without the node, the levels (not shown next to the words) on hover
      title={
        state.detail ??
        (sync && (tone === 'syncing' || tone === 'unreachable')
          ? `Indexed level ${formatNumber(sync.level)}` +
            (sync.node_level !== undefined ? `, node level ${formatNumber(sync.node_level)}` : '')
          : undefined)
      }
      sx={{
        display: 'flex',
        alignItems: 'center',
        gap: { xs: 0.5, sm: 0.75 },
        mx: { xs: 0.25, sm: 0.5 },
        whiteSpace: 'nowrap',
      }}
    >
      <Box
        aria-hidden
        // a new element for each announced level: its one pulse plays again for the next block
        key={tone === 'live' ? level : undefined}
        data-testid="live-dot"
        sx={{
          width: 8,
          height: 8,
          borderRadius: '50%',
          bgcolor: COLOUR[tone],
          flexShrink: 0,
          display: phoneIcon ? { xs: 'none', sm: 'block' } : 'block',
          // One pulse per block, not an endless one: an endless animation redraws the page every frame for as
          // long as it is open (without a GPU, ~8 % of a core per page in chromium: 0.85 CPU-s in 10 s idle
          // against 0.16 without it), and drains a phone's battery for nothing new.
          '@media (prefers-reduced-motion: no-preference)':
            tone === 'live' && level !== undefined ? { animation: `${PULSE} 0.8s ease-in-out 1` } : {},
          [`@keyframes ${PULSE}`]: { '0%, 100%': { opacity: 1 }, '50%': { opacity: 0.35 } },
        }}
      />
      {phoneIcon ? (
        <Box aria-hidden sx={{ display: { xs: 'inline-flex', sm: 'none' }, color: COLOUR[tone] }}>
          {tone === 'syncing' ? (
            <SyncIcon sx={{ fontSize: 16 }} />
          ) : tone === 'failed' ? (
            <ErrorOutlineIcon sx={{ fontSize: 16 }} />
          ) : (
            <CloudOffIcon sx={{ fontSize: 16 }} />
          )}
        </Box>
      ) : null}
      <Typography
        component="span"
        variant="body2"
        role="status"
        aria-live="polite"
        sx={tone === 'paused' ? undefined : PHONE_HIDDEN}
      >
        {state.label}
      </Typography>
      {state.lag ? (
        <>
          <Typography
            component="span"
            variant="body2"
            data-testid="live-lag"
            sx={{ ...PHONE_HIDDEN, ml: { sm: -0.25 } }}
          >
            <span aria-hidden>{'· '}</span>
            {state.lag}
          </Typography>
          <Typography
            component="span"
            variant="caption"
            aria-hidden
            sx={{ display: { xs: 'inline', sm: 'none' }, ml: -0.25 }}
          >
            {formatCompact(state.behind ?? 0)}
          </Typography>
        </>
      ) : null}
      {level !== undefined && (tone === 'live' || tone === 'connecting') ? (
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
