import { useQuery } from '@tanstack/react-query';
import Autocomplete from '@mui/material/Autocomplete';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Grid from '@mui/material/Grid';
import TextField from '@mui/material/TextField';
import { mimeTypesQuery } from '../../api/services';
import type { TokenFilterValues } from './search-logic';

export const TAG_HINT = 'Press enter to create a new one';

function TagInput({
  label,
  value,
  options = [],
  onChange,
}: {
  label: string;
  value: string[];
  options?: string[];
  onChange: (v: string[]) => void;
}) {
  return (
    <Autocomplete<string, true, false, true>
      multiple
      freeSolo
      options={options}
      value={value}
      onChange={(_e, next) => onChange([...new Set(next.map((v) => v.trim()).filter((v) => v !== ''))])}
      renderValue={(values, getItemProps) =>
        values.map((option, index) => {
          const { key, ...props } = getItemProps({ index });
          return <Chip key={key} size="small" label={option} {...props} />;
        })
      }
      renderInput={(params) => <TextField {...params} label={label} helperText={TAG_HINT} size="small" />}
    />
  );
}

interface Props {
  draft: TokenFilterValues;
  onDraftChange: (next: TokenFilterValues) => void;
  canApply: boolean;
  onApply: () => void;
}

/** The Tokens tab's filters: tags, mime types, creators and minters, applied with "Apply filters". */
export function TokenFilters({ draft, onDraftChange, canApply, onApply }: Props) {
  const mimeTypes = useQuery({
    ...mimeTypesQuery(),
    staleTime: Infinity,
    meta: { silent: true },
  });
  const set = (key: keyof TokenFilterValues) => (value: string[]) =>
    onDraftChange({ ...draft, [key]: value });
  return (
    <Grid container spacing={2} sx={{ py: 2 }} component="section" aria-label="Token filters">
      <Grid size={{ xs: 12, sm: 6, md: 3 }}>
        <TagInput label="Tags" value={draft.tags} onChange={set('tags')} />
      </Grid>
      <Grid size={{ xs: 12, sm: 6, md: 3 }}>
        <TagInput
          label="Mime types"
          value={draft.mime_types}
          options={mimeTypes.data ?? []}
          onChange={set('mime_types')}
        />
      </Grid>
      <Grid size={{ xs: 12, sm: 6, md: 3 }}>
        <TagInput label="Creators" value={draft.creators} onChange={set('creators')} />
      </Grid>
      <Grid size={{ xs: 12, sm: 6, md: 3 }}>
        <TagInput label="Minters" value={draft.minters} onChange={set('minters')} />
      </Grid>
      <Grid size={12} sx={{ display: 'flex', justifyContent: 'flex-end' }}>
        <Button variant="contained" disabled={!canApply} onClick={onApply}>
          Apply filters
        </Button>
      </Grid>
    </Grid>
  );
}
