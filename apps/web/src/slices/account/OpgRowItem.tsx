import { memo } from 'react';
import { useQuery } from '@tanstack/react-query';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import { opgContentQuery } from '../../api/opg-api';
import type { OpgRow } from '../../api/opg-types';
import { OperationHashEntity } from '../../shared/entities/OperationHashEntity';
import { formatNumber, formatTez, formatTime } from '../../shared/format/format';
import { OperationCard } from '../operation/OperationCard';
import { statusColour } from '../operation/operation-status';
import { entrypointLabel, flowKind } from './opg-list-logic';

function GroupContents({ network, row }: { network: string; row: OpgRow }) {
  const query = useQuery(opgContentQuery(network, row.hash, row.counter));
  if (query.isPending) return <LinearProgress aria-label="Loading operations" />;
  if (query.isError) return null;
  if (query.data.length === 0) return <Typography color="text.secondary">Nothing found</Typography>;
  return (
    <Stack spacing={1}>
      {query.data.map((op, i) => (
        <OperationCard key={`${op.id ?? i}-${i}`} op={op} />
      ))}
    </Stack>
  );
}

/**
 * One operation group of the list; expanding it loads its operations (with the internal ones). Memoised: a
 * key typed in the search box or the 'Load more' button's state re-renders the list, not every loaded row
 * (its rows keep their objects from the query's pages). Whether it is open is the list's (a virtual list's
 * row scrolled out of sight and back is open as it was).
 */
export const OpgRowItem = memo(function OpgRowItem({
  network,
  row,
  rowKey,
  open,
  onToggle,
  isNew = false,
  index,
  top,
  setSize = -1,
  measure,
}: {
  network: string;
  row: OpgRow;
  /** The row's key in the list (what `onToggle` is called with). */
  rowKey: string;
  open: boolean;
  onToggle: (rowKey: string) => void;
  isNew?: boolean;
  /**
   * In a virtual list only (plain numbers, so that the memo holds): the row's index, its offset from the
   * list's top (px), the list's length (-1: more can be loaded) and the virtualiser's measuring ref.
   */
  index?: number;
  top?: number;
  setSize?: number;
  measure?: (element: Element | null) => void;
}) {
  const flow = flowKind(row.flow);
  const colour = statusColour(row.status);
  const label = entrypointLabel(row);
  return (
    <Paper
      variant="outlined"
      component="li"
      sx={{ listStyle: 'none', ...(isNew ? { borderColor: 'info.main' } : {}) }}
      data-testid="opg-row"
      data-new={isNew ? 'true' : undefined}
      data-mempool={row.mempool ? 'true' : undefined}
      ref={measure}
      data-index={index}
      aria-setsize={index === undefined ? undefined : setSize}
      aria-posinset={index === undefined ? undefined : index + 1}
      style={
        top === undefined
          ? undefined
          : { position: 'absolute', top: 0, left: 0, width: '100%', transform: `translateY(${top}px)` }
      }
    >
      <Stack
        direction="row"
        sx={{ alignItems: 'center', gap: { xs: 1, sm: 2 }, px: 1.5, py: 1, flexWrap: 'wrap' }}
      >
        <IconButton
          size="small"
          aria-expanded={open}
          aria-label={`${open ? 'Hide' : 'Show'} operations of ${label}`}
          data-opg-toggle=""
          onClick={() => onToggle(rowKey)}
        >
          <ExpandMoreIcon sx={{ transform: open ? 'rotate(180deg)' : 'none', transition: 'transform .2s' }} />
        </IconButton>
        <Box sx={{ minWidth: 110 }}>
          <Typography variant="body2">{formatTime(row.timestamp)}</Typography>
          <Typography variant="caption" color="text.secondary">
            {row.mempool ? 'mempool' : formatNumber(row.level)}
          </Typography>
        </Box>
        <Box sx={{ flexGrow: 1, minWidth: 140 }}>
          <Typography variant="body1" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
            {label}
          </Typography>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <Chip
              size="small"
              variant="outlined"
              label={row.status}
              color={colour === 'grey' ? 'default' : colour}
            />
            {isNew ? <Chip size="small" color="info" label="new" /> : null}
            {row.internals > 0 ? (
              <Typography variant="caption" color="text.secondary">
                {row.internals} internal
              </Typography>
            ) : null}
          </Stack>
        </Box>
        {flow ? (
          <Box sx={{ minWidth: 110, textAlign: 'right' }}>
            <Typography variant="body2" color={flow === 'locked' ? 'success.main' : 'error.main'}>
              {flow === 'locked' ? '+' : ''}
              {formatTez(row.flow)}
            </Typography>
            <Typography variant="caption" color="text.secondary">
              {flow}
            </Typography>
          </Box>
        ) : null}
        <Box sx={{ minWidth: 100, textAlign: 'right' }}>
          <Typography variant="body2">{formatTez(row.total_cost)}</Typography>
          <Typography variant="caption" color="text.secondary">
            total cost
          </Typography>
        </Box>
        <Box sx={{ minWidth: 120 }}>
          {row.hash ? (
            <OperationHashEntity network={network} hash={row.hash} />
          ) : (
            <Typography variant="caption">implicit</Typography>
          )}
        </Box>
      </Stack>
      {open ? (
        <Box sx={{ px: { xs: 1, sm: 2 }, pb: 2 }}>
          <GroupContents network={network} row={row} />
        </Box>
      ) : null}
    </Paper>
  );
});
