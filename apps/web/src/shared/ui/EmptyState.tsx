import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';

/** A centred empty state: a title and an optional explanation. */
export function EmptyState({ title, text, icon }: { title: string; text?: string; icon?: ReactNode }) {
  return (
    <Box role="status" sx={{ py: 6, px: 2, textAlign: 'center', color: 'text.secondary' }}>
      {icon}
      <Typography variant="h6" component="p" color="text.primary">
        {title}
      </Typography>
      {text ? <Typography>{text}</Typography> : null}
    </Box>
  );
}
