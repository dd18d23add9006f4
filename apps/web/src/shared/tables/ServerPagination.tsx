import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import ChevronLeftIcon from '@mui/icons-material/ChevronLeft';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';

interface Props {
  page: number;
  pageSize: number;
  /** Rows on the current page: fewer than a full page means it is the last one. */
  rows: number;
  onPageChange: (page: number) => void;
}

/**
 * Pager for lists whose total is unknown: "Go to next page" is disabled once a page comes back short.
 * Light on purpose (no Select), as it is part of the home page's first download.
 */
export function ServerPagination({ page, pageSize, rows, onPageChange }: Props) {
  const from = page * pageSize + 1;
  const label = rows === 0 ? `Page ${page + 1}` : `${from}–${from + rows - 1}`;
  return (
    <Stack direction="row" sx={{ justifyContent: 'flex-end', alignItems: 'center', gap: 1, px: 2, py: 0.5 }}>
      <Typography variant="body2" aria-live="polite">
        {label}
      </Typography>
      <IconButton
        aria-label="Go to previous page"
        disabled={page === 0}
        onClick={() => onPageChange(page - 1)}
      >
        <ChevronLeftIcon />
      </IconButton>
      <IconButton
        aria-label="Go to next page"
        disabled={rows < pageSize}
        onClick={() => onPageChange(page + 1)}
      >
        <ChevronRightIcon />
      </IconButton>
    </Stack>
  );
}
