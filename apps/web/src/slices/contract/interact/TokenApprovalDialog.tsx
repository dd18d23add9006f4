import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
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
  type ApprovalEntry,
  type ApprovalField,
  type ApprovalTypeShape,
} from './approvals';
import { approvalSchemaQuery } from './approvals-api';

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

const paperProps = { paper: { sx: { maxWidth: 600 } } };

/**
 * Token approval add or edit dialog (width 600). Its token types and fields come from
 * GET /v1/helpers/approve/schema; fields are validated on blur and again before saving.
 */
export function TokenApprovalDialog(props: Props) {
  const schema = useQuery({ ...approvalSchemaQuery(), enabled: props.open });
  if (!props.open) return null;
  return (
    <Dialog
      open
      onClose={props.onClose}
      aria-labelledby="token-approval-title"
      fullWidth
      maxWidth={false}
      slotProps={paperProps}
    >
      <DialogTitle id="token-approval-title">
        {props.editing ? 'Edit token approval' : 'Add token approval'}
      </DialogTitle>
      {schema.data ? (
        <DialogBody {...props} shape={schema.data} />
      ) : (
        <>
          <DialogContent>
            {schema.error ? (
              <Alert severity="error">{schema.error.message}</Alert>
            ) : (
              <CircularProgress size={24} aria-label="Loading the token approval form" />
            )}
          </DialogContent>
          <DialogActions>
            <Button onClick={props.onClose}>Cancel</Button>
          </DialogActions>
        </>
      )}
    </Dialog>
  );
}

function DialogBody({ editing, owner, onSave, onClose, shape }: Props & { shape: ApprovalTypeShape[] }) {
  const [entry, setEntry] = useState<ApprovalEntry>(
    () => editing ?? newApproval(shape[0]?.type ?? FA12, owner, shape),
  );
  const [errors, setErrors] = useState<Partial<Record<ApprovalField, string>>>({});
  const typeShape = shape.find((t) => t.type === entry.type);
  const fields = typeShape?.fields ?? [];
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
    <>
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
                  setEntry(newApproval(t, owner, shape));
                  setErrors({});
                }
              }}
            >
              {shape.map((t) => (
                <ToggleButton key={t.type} value={t.type}>
                  {t.typeName}
                </ToggleButton>
              ))}
            </ToggleButtonGroup>
          )}
          {fields.map(({ field: f, maxLength }) => (
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
                  ...(maxLength !== undefined ? { maxLength } : {}),
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
    </>
  );
}
