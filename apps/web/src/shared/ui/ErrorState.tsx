import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { ISSUES_URL, SOCIAL_LINKS } from '../config/social-links';

interface Props {
  /** A short technical detail (the error message), shown below the explanation. */
  detail?: string | null | undefined;
  /** Buttons such as "Try again". */
  actions?: ReactNode;
}

/** The generic error state: "This wasn't planned" with contact links (discovery spec §2). */
export function ErrorState({ detail, actions }: Props) {
  return (
    <Box role="alert" sx={{ py: { xs: 4, sm: 8 }, px: 2, textAlign: 'center', maxWidth: 640, mx: 'auto' }}>
      <Typography variant="h4" component="h1" gutterBottom>
        This wasn&apos;t planned
      </Typography>
      <Typography color="text.secondary">
        Something went wrong while showing this page. Please try again; if it keeps happening, tell us:
      </Typography>
      <Stack
        component="ul"
        aria-label="Contact"
        direction="row"
        sx={{ listStyle: 'none', p: 0, my: 2, justifyContent: 'center', flexWrap: 'wrap', gap: 2 }}
      >
        <li>
          <Link href={ISSUES_URL} target="_blank" rel="noopener noreferrer">
            Report an issue
          </Link>
        </li>
        {SOCIAL_LINKS.map(({ label, href }) => (
          <li key={label}>
            <Link href={href} target="_blank" rel="noopener noreferrer">
              {label}
            </Link>
          </li>
        ))}
      </Stack>
      {detail ? (
        <Typography
          variant="body2"
          color="text.secondary"
          sx={{ fontFamily: 'monospace', wordBreak: 'break-word' }}
        >
          {detail}
        </Typography>
      ) : null}
      {actions ? (
        <Stack direction="row" sx={{ mt: 3, justifyContent: 'center', gap: 2 }}>
          {actions}
        </Stack>
      ) : null}
    </Box>
  );
}
