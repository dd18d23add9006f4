/**
 * The verified source line of an instruction (issue 38): "Source: counter.arl:5" and the line's text. The text
 * is the file's, shown as text (never HTML).
 */
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { SourceLine } from './source-line';

export function SourceLineNote(props: {
  at: SourceLine;
  /** the group's accessible name: 'Source line' (the step), 'Failing source line' (why it failed) */
  label: string;
}) {
  const { at } = props;
  return (
    <Box role="group" aria-label={props.label} sx={{ mb: 1, minWidth: 0 }}>
      <Typography variant="body2" component="div" sx={{ overflowWrap: 'anywhere' }}>
        {`Source: ${at.file}:${at.line}`}
      </Typography>
      {at.text ? (
        <Box
          component="pre"
          sx={{
            m: 0,
            px: 1,
            py: 0.5,
            fontSize: 13,
            fontFamily: 'monospace',
            whiteSpace: 'pre-wrap',
            overflowWrap: 'anywhere',
            bgcolor: 'action.hover',
            borderRadius: 1,
          }}
        >
          {at.text}
        </Box>
      ) : null}
    </Box>
  );
}
