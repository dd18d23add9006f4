import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useParams } from 'react-router';

interface Props {
  /** The screen's name, e.g. "Operations tab". */
  title: string;
  /** Rendered as a section (h2) inside a page instead of a page of its own (h1). */
  inline?: boolean;
}

/**
 * Stand-in for a screen that is not built yet: names the screen and the route parameters it was opened
 * with. It is not a finished screen and is never counted as one.
 */
export function ScreenPlaceholder({ title, inline = false }: Props) {
  const params = useParams();
  const entries = Object.entries(params).filter((e): e is [string, string] => typeof e[1] === 'string');
  return (
    <Paper
      variant="outlined"
      data-testid="screen-placeholder"
      sx={{ p: { xs: 2, sm: 3 }, borderStyle: 'dashed', my: inline ? 0 : 2 }}
    >
      <Typography variant={inline ? 'h6' : 'h5'} component={inline ? 'h2' : 'h1'} gutterBottom>
        {title}
      </Typography>
      <Typography color="text.secondary">This screen is not built yet.</Typography>
      {entries.length > 0 && (
        <Stack direction="row" sx={{ mt: 2, flexWrap: 'wrap', gap: 1 }}>
          {entries.map(([name, value]) => (
            <Chip key={name} size="small" label={<Box component="span">{`${name}: ${value}`}</Box>} />
          ))}
        </Stack>
      )}
    </Paper>
  );
}
