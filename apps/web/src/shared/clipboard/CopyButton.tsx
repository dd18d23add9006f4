import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import { useCopy } from './useCopy';

/** An icon button that copies `text`; its accessible name is `label` (default "Copy"). */
export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const copy = useCopy();
  return (
    <Tooltip title={label}>
      <IconButton size="small" aria-label={label} onClick={() => void copy(text)}>
        <ContentCopyIcon fontSize="inherit" />
      </IconButton>
    </Tooltip>
  );
}
