/**
 * The debugger's code pane: the script, virtualised, the current instruction highlighted; a click runs to a
 * line. A step re-renders the lines whose highlight changes (the old and the new current line), not every
 * visible line: each line is memoised on its text, its place and its highlight.
 */
import { memo, useEffect, useRef } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { alpha } from '@mui/material/styles';

const ROW = 20;

export const CodeView = memo(function CodeView(props: {
  lines: string[];
  row: number | undefined;
  span: [number, number, number] | undefined;
  /** Running to a line (stable across steps, so that the lines need not re-render). */
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
    const row = props.row;
    if (row === undefined) return;
    // a line already in sight needs no scrolling (lines are ROW high: the line's place is known)
    const top = row * ROW;
    const offset = v.scrollOffset ?? 0;
    const height = v.scrollRect?.height ?? 0;
    if (height > 0 && top >= offset && top + ROW <= offset + height) return;
    // else the box scrolls once the step is painted: scrollToIndex reads the box's layout, which a step's
    // changes have just made stale (a layout of the page within the key press, ~15 ms of a slow phone's)
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => v.scrollToIndex(row, { align: 'auto' }), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
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
            const current = it.index === props.row;
            const [from, to] = current && props.span ? [props.span[1], props.span[2]] : [0, 0];
            return (
              <CodeLine
                key={it.index}
                index={it.index}
                start={it.start}
                text={props.lines[it.index] ?? ''}
                current={current}
                from={from}
                to={to}
                onRow={props.onRow}
              />
            );
          })}
        </Box>
      </Box>
    </Box>
  );
});

/** One line of the code pane (0-based `index`), its instruction marked from `from` to `to` when current. */
const CodeLine = memo(function CodeLine(props: {
  index: number;
  start: number;
  text: string;
  current: boolean;
  from: number;
  to: number;
  onRow: (row: number) => void;
}) {
  const { index, text, current, from, to, onRow } = props;
  return (
    <Box
      role="listitem"
      aria-current={current ? 'step' : undefined}
      data-line={index + 1}
      onClick={() => onRow(index)}
      // the place as an inline style: a class per distinct top would add a style rule per line scrolled to
      style={{ top: props.start }}
      sx={(t) => ({
        position: 'absolute',
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
        {index + 1}
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
});
