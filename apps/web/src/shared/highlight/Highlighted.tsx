import Box from '@mui/material/Box';
import { highlightSegments } from './highlight';

/** A highlight fragment as text with <mark> around the matched words. */
export function Highlighted({ fragment }: { fragment: string }) {
  return (
    <>
      {highlightSegments(fragment).map((s, i) =>
        s.marked ? (
          <Box
            key={i}
            component="mark"
            sx={{ bgcolor: 'transparent', color: 'primary.main', fontWeight: 700 }}
          >
            {s.text}
          </Box>
        ) : (
          <span key={i}>{s.text}</span>
        ),
      )}
    </>
  );
}
