import { Link as RouterLink } from 'react-router';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Grid from '@mui/material/Grid';
import Typography from '@mui/material/Typography';
import { useCopy } from '../clipboard/useCopy';
import { useAppConfig } from '../config/useAppConfig';
import { valueLinks } from '../entities/value-links';
import type { TreeRow } from './miguel-tree';

const BADGES = { create: 'insert', update: 'replace', delete: 'remove' } as const;

function ValueBox({ title, value, onCopy }: { title: string; value: string; onCopy: () => void }) {
  return (
    <Box>
      <Typography variant="caption" color="text.secondary">
        {title}
      </Typography>
      <Box
        component="pre"
        aria-label={title}
        title="Click to copy"
        onClick={onCopy}
        sx={{
          m: 0,
          p: 1,
          maxHeight: 360,
          overflow: 'auto',
          whiteSpace: 'pre-wrap',
          overflowWrap: 'anywhere',
          fontSize: 13,
          bgcolor: 'action.hover',
          borderRadius: 1,
          cursor: 'copy',
        }}
      >
        {value === '' ? '—' : value}
      </Box>
    </Box>
  );
}

/**
 * The value inspector of a tree leaf: title 'Inspect: {name}', a diff badge, the value (old and new side
 * by side for an update), copy on click, and the View / View Storage / View IPFS links of the value.
 */
export function ValueInspector({
  row,
  network,
  onClose,
}: {
  row: TreeRow | null;
  network: string;
  onClose: () => void;
}) {
  return row === null ? null : <InspectorDialog row={row} network={network} onClose={onClose} />;
}

function InspectorDialog({ row, network, onClose }: { row: TreeRow; network: string; onClose: () => void }) {
  const config = useAppConfig();
  const copy = useCopy();
  const links = valueLinks(row.value, network, config.ipfs_gateway);
  const update = row.diff === 'update' && row.from !== '';
  return (
    <Dialog open onClose={onClose} maxWidth={update ? 'md' : 'sm'} fullWidth aria-labelledby="inspect-title">
      <DialogTitle id="inspect-title" sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
        <span>Inspect: {row.label || '@empty'}</span>
        {row.diff ? <Chip size="small" label={BADGES[row.diff]} /> : null}
      </DialogTitle>
      <DialogContent dividers>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1, fontFamily: 'monospace' }}>
          {row.node.type || row.node.prim}
        </Typography>
        {update ? (
          <Grid container spacing={2}>
            <Grid size={{ xs: 12, md: 6 }}>
              <ValueBox title="Old value" value={row.from} onCopy={() => void copy(row.from)} />
            </Grid>
            <Grid size={{ xs: 12, md: 6 }}>
              <ValueBox title="New value" value={row.value} onCopy={() => void copy(row.value)} />
            </Grid>
          </Grid>
        ) : (
          <ValueBox title="Value" value={row.value} onCopy={() => void copy(row.value)} />
        )}
      </DialogContent>
      <DialogActions>
        {links.map((l) =>
          l.external ? (
            <Button key={l.label} component="a" href={l.href} target="_blank" rel="noopener noreferrer">
              {l.label}
            </Button>
          ) : (
            <Button key={l.label} component={RouterLink} to={l.href} onClick={onClose}>
              {l.label}
            </Button>
          ),
        )}
        <Button onClick={() => void copy(row.value)}>Copy</Button>
        <Button onClick={onClose} variant="contained">
          Close
        </Button>
      </DialogActions>
    </Dialog>
  );
}
