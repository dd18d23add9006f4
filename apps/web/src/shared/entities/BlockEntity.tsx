import Box from '@mui/material/Box';
import { formatNumber } from '../format/format';

/** A block level, with thousands separators; 'mempool' for pending operations. */
export function BlockEntity({ level, mempool = false }: { level: number; mempool?: boolean }) {
  if (mempool) return <Box component="span">mempool</Box>;
  return (
    <Box component="span" sx={{ fontFamily: 'monospace' }} title={`Level ${level}`}>
      {formatNumber(level)}
    </Box>
  );
}
