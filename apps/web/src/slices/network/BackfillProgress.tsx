import { useId } from 'react';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import type { BackfillSummary } from '@michelscope/api-types';
import { formatNumber } from '../../shared/format/format';

const plural = (n: number, one: string, many: string) => `${formatNumber(n)} ${n === 1 ? one : many}`;

/**
 * The network's history backfill (issue 32, `backfill` of GET /v1/head) as words: 'History backfill: 2
 * contracts, 340 of 1,200 levels', then the addresses not done by state ('1 waiting, 1 paused').
 */
export function backfillLine(s: BackfillSummary): string {
  const addresses = s.pending + s.running + s.done + s.failed;
  const states = [
    s.running > 0 ? `${formatNumber(s.running)} running` : null,
    s.pending > 0 ? `${formatNumber(s.pending)} waiting` : null,
    s.failed > 0 ? `${formatNumber(s.failed)} paused` : null,
  ].filter((x): x is string => x !== null);
  const done = s.pending + s.running + s.failed === 0 ? ' (complete)' : '';
  return (
    `History backfill: ${plural(addresses, 'contract', 'contracts')}, ` +
    `${formatNumber(s.levels_done)} of ${plural(s.levels_total, 'level', 'levels')}${done}` +
    (states.length > 0 ? ` · ${states.join(', ')}` : '')
  );
}

/** The backfill line with an accessible progress bar (labelled by the line, its value text in levels). */
export function BackfillProgress({ summary }: { summary: BackfillSummary }) {
  const id = useId();
  const { levels_done: done, levels_total: total } = summary;
  return (
    <Box sx={{ mb: 1.5 }} data-testid="network-backfill">
      <Typography variant="body2" color="text.secondary" id={id}>
        {backfillLine(summary)}
      </Typography>
      {total > 0 ? (
        <LinearProgress
          variant="determinate"
          value={Math.min(100, (100 * done) / total)}
          aria-labelledby={id}
          aria-valuetext={`${formatNumber(done)} of ${formatNumber(total)} levels`}
          sx={{ mt: 0.5, maxWidth: 360 }}
        />
      ) : null}
    </Box>
  );
}
