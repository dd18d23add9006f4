import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import CloseIcon from '@mui/icons-material/Close';
import { FA2, type ApprovalEntry } from './approvals';
import { TokenApprovalDialog } from './TokenApprovalDialog';

interface Props {
  value: ApprovalEntry[];
  onChange: (entries: ApprovalEntry[]) => void;
  /** Prefilled FA2 owner: the connected wallet's address. */
  owner: string;
  disabled?: boolean;
}

/**
 * "Token approvals": FA1.2 / FA2 tokens approved for the called contract in the same batch as the call and
 * revoked after it. Click an entry to edit it.
 */
export function ApprovalsSection({ value, onChange, owner, disabled }: Props) {
  const [dialog, setDialog] = useState<{ index: number | null } | null>(null);
  const editing = dialog?.index != null ? (value[dialog.index] ?? null) : null;

  return (
    <Box component="section" aria-label="Token approvals">
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
        <Typography variant="overline" component="h3">
          Token approvals
        </Typography>
        <Button
          size="small"
          startIcon={<AddIcon />}
          disabled={disabled ?? false}
          onClick={() => setDialog({ index: null })}
        >
          Add
        </Button>
      </Box>
      {value.length > 0 ? (
        <List dense aria-label="Approved tokens">
          {value.map((entry, i) => (
            <ListItem
              key={i}
              disablePadding
              secondaryAction={
                <IconButton
                  edge="end"
                  size="small"
                  aria-label={`Remove ${entry.typeName} ${entry.value.tokenContract}`}
                  onClick={() => onChange(value.filter((_, j) => j !== i))}
                >
                  <CloseIcon fontSize="small" />
                </IconButton>
              }
            >
              <ListItemButton onClick={() => setDialog({ index: i })} disabled={disabled ?? false}>
                <Chip size="small" label={entry.typeName} sx={{ mr: 1, minWidth: 56 }} />
                <ListItemText
                  primary={
                    entry.type === FA2
                      ? `${entry.value.tokenContract} with token id ${entry.value.tokenId}`
                      : entry.value.tokenContract
                  }
                  secondary={
                    entry.type === FA2 ? `Owner: ${entry.value.owner}` : `Allowance: ${entry.value.allowance}`
                  }
                  slotProps={{
                    primary: { sx: { fontFamily: 'monospace', overflowWrap: 'anywhere' } },
                    secondary: { sx: { fontFamily: 'monospace', overflowWrap: 'anywhere' } },
                  }}
                />
              </ListItemButton>
            </ListItem>
          ))}
        </List>
      ) : null}
      <TokenApprovalDialog
        open={dialog !== null}
        editing={editing}
        owner={owner}
        onClose={() => setDialog(null)}
        onSave={(entry) => {
          const i = dialog?.index;
          onChange(i == null ? [...value, entry] : value.map((e, j) => (j === i ? entry : e)));
          setDialog(null);
        }}
      />
    </Box>
  );
}
