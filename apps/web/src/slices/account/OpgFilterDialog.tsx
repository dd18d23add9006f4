import { useState } from 'react';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControl from '@mui/material/FormControl';
import InputLabel from '@mui/material/InputLabel';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import Select from '@mui/material/Select';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { OPERATION_STATUSES } from '../operation/operation-status';
import { MIN_DATE } from './opg-list-logic';

export interface OpgFilters {
  statuses: string[];
  entrypoints: string[];
  from: string;
  to: string;
}

export const NO_FILTERS: OpgFilters = { statuses: [], entrypoints: [], from: '', to: '' };

const ALL = '__all__';

function MultiSelect({
  label,
  options,
  value,
  onChange,
}: {
  label: string;
  options: readonly string[];
  value: string[];
  onChange: (v: string[]) => void;
}) {
  const id = `filter-${label.toLowerCase()}`;
  const all = options.length > 0 && value.length === options.length;
  return (
    <FormControl fullWidth>
      <InputLabel id={id}>{label}</InputLabel>
      <Select
        labelId={id}
        multiple
        value={value}
        label={label}
        renderValue={(v) => v.join(', ')}
        onChange={(e) => {
          const picked = typeof e.target.value === 'string' ? e.target.value.split(',') : e.target.value;
          if (picked.includes(ALL)) onChange(all ? [] : [...options]);
          else onChange(picked);
        }}
      >
        <MenuItem value={ALL}>
          <Checkbox checked={all} indeterminate={value.length > 0 && !all} />
          <ListItemText primary="Select all" />
        </MenuItem>
        {options.map((o) => (
          <MenuItem key={o} value={o}>
            <Checkbox checked={value.includes(o)} />
            <ListItemText primary={o} />
          </MenuItem>
        ))}
      </Select>
    </FormControl>
  );
}

interface Props {
  open: boolean;
  onClose: () => void;
  value: OpgFilters;
  onApply: (filters: OpgFilters) => void;
  /** Entrypoints of the contract; the entrypoint filter exists for contracts only. */
  entrypoints: readonly string[] | null;
}

/** The filter dialog: status (with select-all), entrypoint (contracts), date range 2018-06-30..today, Apply. */
export function OpgFilterDialog({ open, onClose, value, onApply, entrypoints }: Props) {
  const [draft, setDraft] = useState(value);
  const today = new Date().toISOString().slice(0, 10);
  return (
    <Dialog
      open={open}
      onClose={onClose}
      aria-labelledby="opg-filter-title"
      maxWidth="sm"
      fullWidth
      slotProps={{ transition: { onEnter: () => setDraft(value) } }}
    >
      <DialogTitle id="opg-filter-title">Filters</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <MultiSelect
            label="Status"
            options={OPERATION_STATUSES}
            value={draft.statuses}
            onChange={(statuses) => setDraft({ ...draft, statuses })}
          />
          {entrypoints ? (
            <MultiSelect
              label="Entrypoint"
              options={entrypoints}
              value={draft.entrypoints}
              onChange={(eps) => setDraft({ ...draft, entrypoints: eps })}
            />
          ) : null}
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <TextField
              type="date"
              label="From"
              value={draft.from}
              onChange={(e) => setDraft({ ...draft, from: e.target.value })}
              slotProps={{ inputLabel: { shrink: true }, htmlInput: { min: MIN_DATE, max: today } }}
              fullWidth
            />
            <TextField
              type="date"
              label="To"
              value={draft.to}
              onChange={(e) => setDraft({ ...draft, to: e.target.value })}
              slotProps={{ inputLabel: { shrink: true }, htmlInput: { min: MIN_DATE, max: today } }}
              fullWidth
            />
          </Stack>
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={() => setDraft(NO_FILTERS)}>Clear</Button>
        <Button
          variant="contained"
          onClick={() => {
            onApply(draft);
            onClose();
          }}
        >
          Apply
        </Button>
      </DialogActions>
    </Dialog>
  );
}
