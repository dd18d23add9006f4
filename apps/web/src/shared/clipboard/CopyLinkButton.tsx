import { useState } from 'react';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import LinkIcon from '@mui/icons-material/Link';
import { useCopy } from './useCopy';

/**
 * 'Copy link': builds a link (it may take a request: a long one is stored), copies it and shows it in a
 * read-only field, for a page whose clipboard is unavailable (plain http) or to open it elsewhere.
 */
export function CopyLinkButton(props: { build: () => Promise<string>; label?: string }) {
  const copy = useCopy();
  const [link, setLink] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    setError(null);
    try {
      const url = await props.build();
      setLink(url);
      await copy(url);
    } catch (e) {
      setError(`No link: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack direction="row" sx={{ gap: 1, alignItems: 'center', flexWrap: 'wrap', minWidth: 0, mb: 1 }}>
      <Button
        size="small"
        variant="outlined"
        startIcon={<LinkIcon />}
        disabled={busy}
        onClick={() => void run()}
      >
        {props.label ?? 'Copy link'}
      </Button>
      {link ? (
        <TextField
          size="small"
          label="Link"
          value={link}
          sx={{ flex: 1, minWidth: 180 }}
          onFocus={(e) => e.target.select()}
          slotProps={{ htmlInput: { readOnly: true, 'aria-label': 'Share link', spellCheck: false } }}
        />
      ) : null}
      {error ? (
        <Typography variant="body2" color="error" role="alert">
          {error}
        </Typography>
      ) : null}
    </Stack>
  );
}
