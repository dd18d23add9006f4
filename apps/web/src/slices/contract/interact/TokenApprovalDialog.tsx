import { useState } from 'react';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import {
  approvalErrors,
  approvalFieldError,
  FA12,
  FA2,
  newApproval,
  TOKEN_INPUT_MAX,
  type ApprovalEntry,
  type ApprovalField,
} from './approvals';

interface Props {
  open: boolean;
  /** The entry being edited, or null to add one. */
  editing: ApprovalEntry | null;
  /** Owner prefilled for a new FA2 entry (the connected wallet). */
  owner: string;
  onSave: (entry: ApprovalEntry) => void;
  onClose: () => void;
}

const LABELS: Record<ApprovalField, string> = {
  tokenContract: 'Token contract',
  allowance: 'Allowance',
  owner: 'Owner',
  tokenId: 'Token id',
};

/** Token approval add or edit dialog (width 600); fields are validated on blur and again before saving. */
export function TokenApprovalDialog(props: Props) {
  return props.open ? <DialogBody {...props} /> : null;
}

function DialogBody({ editing, owner, onSave, onClose }: Props) {
  const [entry, setEntry] = useState<ApprovalEntry>(() => editing ?? newApproval(FA12, owner));
  const [errors, setErrors] = useState<Partial<Record<ApprovalField, string>>>({});
  const fields: ApprovalField[] =
    entry.type === FA12 ? ['tokenContract', 'allowance'] : ['tokenContract', 'owner', 'tokenId'];
  const values = entry.value as unknown as Record<ApprovalField, string>;

  const setField = (f: ApprovalField, text: string) =>
    setEntry({ ...entry, value: { ...entry.value, [f]: text } } as ApprovalEntry);
  const blur = (f: ApprovalField) =>
    setErrors((e) => ({ ...e, [f]: approvalFieldError(f, values[f] ?? '') ?? undefined }));
  const save = () => {
    const found = approvalErrors(entry);
    setErrors(found);
    if (Object.keys(found).length === 0) onSave(entry);
  };

  return (
    <Dialog
      open
      onClose={onClose}
      aria-labelledby="token-approval-title"
      fullWidth
      maxWidth={false}
      slotProps={{ paper: { sx: { maxWidth: 600 } } }}
    >
      <DialogTitle id="token-approval-title">
        {editing ? 'Edit token approval' : 'Add token approval'}
      </DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          {editing ? (
            <Chip size="small" label={entry.typeName} sx={{ alignSelf: 'flex-start' }} />
          ) : (
            <ToggleButtonGroup
              exclusive
              size="small"
              aria-label="Token type"
              value={entry.type}
              onChange={(_, t: number | null) => {
                if (t === FA12 || t === FA2) {
                  setEntry(newApproval(t, owner));
                  setErrors({});
                }
              }}
            >
              <ToggleButton value={FA12}>FA1.2</ToggleButton>
              <ToggleButton value={FA2}>FA2</ToggleButton>
            </ToggleButtonGroup>
          )}
          {fields.map((f) => (
            <TextField
              key={`${entry.type}-${f}`}
              size="small"
              label={LABELS[f]}
              value={values[f] ?? ''}
              error={Boolean(errors[f])}
              helperText={
                errors[f] ??
                (f === 'owner' ? 'If you attached a wallet, its address will be pasted automatically' : ' ')
              }
              slotProps={{
                htmlInput: {
                  ...(f === 'tokenContract' || f === 'owner' ? { maxLength: TOKEN_INPUT_MAX } : {}),
                  ...(f === 'allowance' || f === 'tokenId' ? { inputMode: 'numeric' } : {}),
                },
              }}
              onChange={(e) => setField(f, e.target.value)}
              onBlur={() => blur(f)}
            />
          ))}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button variant="contained" onClick={save}>
          {editing ? 'Save' : 'Add'}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
