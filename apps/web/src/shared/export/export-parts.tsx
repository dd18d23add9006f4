/** What ExportButton draws before and after its menu and stream code has loaded (./ExportControl). */
import type { MouseEvent, ReactNode, Ref } from 'react';
import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import FileDownloadIcon from '@mui/icons-material/FileDownload';
import { formatNumber } from '../format/format';
import { OUTLINED_SMALL_BUTTON, SMALL_START_ICON } from '../ui/button-look';
import type { ExportFormat, ExportRequest } from './export-stream';

export interface ExportButtonProps {
  /** The export's request (the list's filters) for a format (api/resources EXPORTS). */
  request: (format: ExportFormat) => ExportRequest;
  /** Names the rows ("operations", "keys"). */
  what: string;
  /** The rows of the list, when it knows them (the progress says "N of total rows"). */
  total?: number | undefined;
}

/** "1,234 rows" or "1,234 of 5,000 rows" when the total is known. */
export function progressText(rows: number, total: number | undefined): string {
  return total !== undefined && total >= rows
    ? `${formatNumber(rows)} of ${formatNumber(total)} rows`
    : `${formatNumber(rows)} rows`;
}

/** The control's layout: the Export button, Cancel, the status line (a live region that is always there). */
export function ExportShell({
  what,
  status,
  trigger,
  cancel,
  children,
}: {
  what: string;
  status: string;
  trigger: ReactNode;
  cancel?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <Stack sx={{ gap: 0.5, minWidth: 0 }}>
      <Stack direction="row" sx={{ gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
        {trigger}
        {cancel}
        <Typography role="status" aria-label={`Export progress of ${what}`} variant="caption">
          {status}
        </Typography>
      </Stack>
      {children}
    </Stack>
  );
}

/**
 * The 'Export' button of a table (`<Button variant="outlined" size="small" startIcon={<FileDownload/>}>`'s
 * look on a ButtonBase): the same element before and after the export's menu and stream code has loaded
 * (ExportButton), so that a first visit downloads neither MUI Button nor Menu for it.
 */
export function ExportTrigger({
  what,
  open,
  disabled,
  onClick,
  onWarm,
  ref,
}: {
  what: string;
  open: boolean;
  disabled?: boolean;
  onClick?: (e: MouseEvent<HTMLButtonElement>) => void;
  /** The pointer or the focus came to the button: a chance to load the menu's code before the click. */
  onWarm?: () => void;
  ref?: Ref<HTMLButtonElement>;
}) {
  return (
    <ButtonBase
      ref={ref}
      focusRipple
      sx={OUTLINED_SMALL_BUTTON}
      onClick={onClick}
      onPointerEnter={onWarm}
      onFocus={onWarm}
      disabled={disabled ?? false}
      aria-haspopup="menu"
      aria-expanded={open}
      aria-label={`Export ${what}`}
    >
      <Box component="span" sx={SMALL_START_ICON}>
        <FileDownloadIcon />
      </Box>
      Export
    </ButtonBase>
  );
}
