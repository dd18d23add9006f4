import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';

export type Fact = readonly [label: string, value: ReactNode];

interface FactListProps {
  /** Accessible name of the list (e.g. "Simulation totals"). */
  label: string;
  facts: readonly Fact[];
  /** Values in a monospace font, wrapping anywhere (hashes, gas figures). */
  mono?: boolean;
}

/** A row of labelled figures as a description list (`dl`): the totals of a simulation, a debugger step… */
export function FactList({ label, facts, mono = false }: FactListProps) {
  return (
    <Stack component="dl" direction="row" aria-label={label} sx={{ gap: 3, flexWrap: 'wrap', m: 0, mb: 1 }}>
      {facts.map(([k, v]) => (
        <Box key={k}>
          <Typography component="dt" variant="caption" color="text.secondary">
            {k}
          </Typography>
          <Typography
            component="dd"
            variant="body2"
            sx={{ m: 0, ...(mono ? { fontFamily: 'monospace', overflowWrap: 'anywhere' } : {}) }}
          >
            {v}
          </Typography>
        </Box>
      ))}
    </Stack>
  );
}
