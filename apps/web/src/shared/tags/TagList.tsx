import { useState } from 'react';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import { TAGS_SHOWN, tagLabels } from './tag-labels';

interface Props {
  /** Raw tags; with `raw` they are shown as they are (token tags), else mapped to contract tag labels. */
  tags: readonly string[];
  raw?: boolean;
}

/** Tag chips: up to 12, then a '+ N others' toggle that shows the rest. */
export function TagList({ tags, raw = false }: Props) {
  const [expanded, setExpanded] = useState(false);
  const labels = raw ? [...new Set(tags.filter((t) => t.trim() !== ''))] : tagLabels(tags);
  if (labels.length === 0) return null;
  const hidden = labels.length - TAGS_SHOWN;
  const shown = expanded || hidden <= 0 ? labels : labels.slice(0, TAGS_SHOWN);
  return (
    <Stack
      direction="row"
      component="ul"
      aria-label="Tags"
      sx={{ flexWrap: 'wrap', gap: 0.5, p: 0, m: 0, listStyle: 'none' }}
    >
      {shown.map((label) => (
        <li key={label}>
          <Chip size="small" variant="outlined" label={label} />
        </li>
      ))}
      {hidden > 0 ? (
        <li>
          <Chip
            size="small"
            color="primary"
            variant="outlined"
            label={expanded ? 'Show less' : `+ ${hidden} others`}
            onClick={() => setExpanded((e) => !e)}
            aria-expanded={expanded}
          />
        </li>
      ) : null}
    </Stack>
  );
}
