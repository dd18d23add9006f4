/** The debugger's code pane: the script, virtualised, the current instruction highlighted; a click runs to a line. */
import { useEffect, useRef } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { alpha } from '@mui/material/styles';

const ROW = 20;

export function CodeView(props: {
  lines: string[];
  row: number | undefined;
  span: [number, number, number] | undefined;
  onRow: (row: number) => void;
}) {
  const parent = useRef<HTMLDivElement>(null);
  const v = useVirtualizer({
    count: props.lines.length,
    getScrollElement: () => parent.current,
    estimateSize: () => ROW,
    overscan: 10,
  });
  useEffect(() => {
    if (props.row !== undefined) v.scrollToIndex(props.row, { align: 'auto' });
  }, [props.row, v]);
  return (
    <Box component="section" aria-label="Code">
      <Typography variant="overline" component="h3">
        Code · click a line to run to it
      </Typography>
      <Box
        ref={parent}
        role="list"
        aria-label="Michelson code"
        sx={{
          height: { xs: 280, md: 440 },
          overflow: 'auto',
          fontFamily: 'monospace',
          fontSize: 13,
          border: 1,
          borderColor: 'divider',
          borderRadius: 1,
        }}
      >
        <Box sx={{ height: v.getTotalSize(), position: 'relative', minWidth: 'max-content' }}>
          {v.getVirtualItems().map((it) => {
            const text = props.lines[it.index] ?? '';
            const current = it.index === props.row;
            const [from, to] = current && props.span ? [props.span[1], props.span[2]] : [0, 0];
            return (
              <Box
                key={it.index}
                role="listitem"
                aria-current={current ? 'step' : undefined}
                data-line={it.index + 1}
                onClick={() => props.onRow(it.index)}
                sx={(t) => ({
                  position: 'absolute',
                  top: it.start,
                  left: 0,
                  right: 0,
                  height: ROW,
                  lineHeight: `${ROW}px`,
                  whiteSpace: 'pre',
                  cursor: 'pointer',
                  pr: 1,
                  bgcolor: current ? alpha(t.palette.warning.main, 0.22) : undefined,
                  '&:hover': { bgcolor: alpha(t.palette.primary.main, 0.08) },
                })}
              >
                <Box
                  component="span"
                  aria-hidden
                  sx={{
                    display: 'inline-block',
                    width: '4.5em',
                    color: 'text.secondary',
                    textAlign: 'right',
                    pr: 1.5,
                  }}
                >
                  {it.index + 1}
                </Box>
                {to > from ? (
                  <>
                    {text.slice(0, from)}
                    <Box component="mark" sx={{ bgcolor: 'warning.main', color: 'warning.contrastText' }}>
                      {text.slice(from, to)}
                    </Box>
                    {text.slice(to)}
                  </>
                ) : (
                  text
                )}
              </Box>
            );
          })}
        </Box>
      </Box>
    </Box>
  );
}
