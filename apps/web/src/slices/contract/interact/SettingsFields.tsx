import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { isAddress } from '../../../shared/chain/patterns';

export interface Settings {
  source: string;
  sender: string;
  /** mutez, digits only */
  amount: string;
}

/** Why the settings cannot be used, or null. Source and sender are optional addresses; amount is mutez. */
export function settingsError(s: Settings): string | null {
  if (s.source.trim() && !isAddress(s.source.trim()))
    return 'Source: In this field you should write the address';
  if (s.sender.trim() && !isAddress(s.sender.trim()))
    return 'Sender: In this field you should write the address';
  if (s.amount.trim() && !/^\d+$/.test(s.amount.trim())) return 'Amount: Only digits are allowed';
  return null;
}

/** Source, sender and amount (mutez) of a call. */
export function SettingsFields({ value, onChange }: { value: Settings; onChange: (s: Settings) => void }) {
  return (
    <Stack
      component="fieldset"
      direction={{ xs: 'column', sm: 'row' }}
      spacing={1}
      sx={{ border: 0, p: 0, m: 0 }}
    >
      <TextField
        size="small"
        label="Source"
        value={value.source}
        onChange={(e) => onChange({ ...value, source: e.target.value })}
      />
      <TextField
        size="small"
        label="Sender"
        value={value.sender}
        onChange={(e) => onChange({ ...value, sender: e.target.value })}
      />
      <TextField
        size="small"
        label="Amount (mutez)"
        value={value.amount}
        slotProps={{ htmlInput: { inputMode: 'numeric' } }}
        onChange={(e) => onChange({ ...value, amount: e.target.value })}
      />
    </Stack>
  );
}

/** Why a storage limit (bytes, digits, optional) cannot be used, or null. */
export const storageLimitError = (v: string): string | null =>
  v.trim() && !/^\d+$/.test(v.trim()) ? 'Storage limit: Only digits are allowed' : null;

/** The storage limit (bytes) a simulation runs with: empty for the node's maximum per operation. */
export function StorageLimitField(props: { value: string; onChange: (v: string) => void }) {
  return (
    <TextField
      size="small"
      label="Storage limit (bytes)"
      value={props.value}
      helperText="Empty: the node's maximum per operation"
      slotProps={{ htmlInput: { inputMode: 'numeric' } }}
      onChange={(e) => props.onChange(e.target.value)}
      sx={{ maxWidth: 320 }}
    />
  );
}
