/**
 * Read-only Michelson viewer on CodeMirror 6 (bcd-frontend.md §3.1): highlighted, line numbers, line
 * wrapping, themed from MUI. Long code is appended in chunks of 35,000 characters, one per tick, with a
 * 'Rendering: N%' label, so the page stays responsive. An optional span (error location) is marked red.
 * Import it lazily (React.lazy) so CodeMirror stays out of the main bundle.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { EditorState, RangeSetBuilder, type Extension } from '@codemirror/state';
import { Decoration, EditorView, lineNumbers } from '@codemirror/view';
import { HighlightStyle, StreamLanguage, syntaxHighlighting } from '@codemirror/language';
import { tags } from '@lezer/highlight';
import { useTheme } from '@mui/material/styles';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { codeChunks, michelsonMode, renderingPercent } from './michelson-mode';

/** Code render chunk (workspace spec §9). */
export const CODE_CHUNK = 35_000;

export interface CodeMark {
  /** 1-based line in the shown text. */
  line: number;
  /** 0-based columns, end exclusive (as /error_location returns them). */
  startCol: number;
  endCol: number;
}

interface Props {
  code: string;
  label: string;
  /** Number of the first shown line (a window of a larger script). */
  firstLineNumber?: number;
  mark?: CodeMark | null;
  maxHeight?: number | string;
}

const language = StreamLanguage.define(michelsonMode);

function markExtension(mark: CodeMark): Extension {
  return EditorView.decorations.compute(['doc'], (state) => {
    const builder = new RangeSetBuilder<Decoration>();
    if (mark.line >= 1 && mark.line <= state.doc.lines) {
      const line = state.doc.line(mark.line);
      const from = Math.min(line.to, line.from + Math.max(0, mark.startCol));
      const to = Math.min(line.to, line.from + Math.max(0, mark.endCol));
      if (to > from) {
        builder.add(from, to, Decoration.mark({ class: 'cm-failed', attributes: { 'data-failed': 'true' } }));
      }
    }
    return builder.finish();
  });
}

export function MichelsonViewer({ code, label, firstLineNumber = 1, mark = null, maxHeight = 640 }: Props) {
  const host = useRef<HTMLDivElement>(null);
  const theme = useTheme();
  const dark = theme.palette.mode === 'dark';
  const chunks = useMemo(() => codeChunks(code, CODE_CHUNK), [code]);
  // `done` chunks are in the editor; a new code starts again with its first chunk.
  const [progress, setProgress] = useState({ chunks, done: 1 });
  const done = Math.min(chunks.length, progress.chunks === chunks ? progress.done : 1);
  const doneRef = useRef(done);
  doneRef.current = done;

  const extensions = useMemo((): Extension[] => {
    const p = theme.palette;
    const style = HighlightStyle.define([
      { tag: tags.atom, color: dark ? '#cc7832' : '#7a3e9d' },
      { tag: tags.keyword, color: dark ? '#ffc66d' : '#1d4ed8', fontWeight: 'bold' },
      { tag: tags.typeName, color: dark ? '#9876aa' : '#b45309' },
      { tag: tags.variableName, color: dark ? '#6897bb' : '#0f766e' },
      { tag: tags.macroName, color: dark ? '#e8bf6a' : '#be185d' },
      { tag: [tags.string, tags.number], color: dark ? '#6a8759' : '#15803d' },
      { tag: tags.comment, color: dark ? '#808080' : '#6b7280', fontStyle: 'italic' },
    ]);
    return [
      EditorState.readOnly.of(true),
      EditorView.editable.of(false),
      EditorView.lineWrapping,
      lineNumbers({ formatNumber: (n) => String(n + firstLineNumber - 1) }),
      language,
      syntaxHighlighting(style),
      EditorView.contentAttributes.of({
        'aria-label': label,
        'aria-readonly': 'true',
        role: 'textbox',
        'aria-multiline': 'true',
      }),
      EditorView.theme(
        {
          '&': { backgroundColor: p.background.paper, color: p.text.primary, fontSize: '13px' },
          '.cm-gutters': {
            backgroundColor: p.background.paper,
            border: 'none',
            color: 'rgba(128,128,128,.5)',
          },
          '.cm-scroller': { fontFamily: '"Roboto Mono", monospace' },
          '.cm-failed': { backgroundColor: 'rgba(244,67,54,.35)', borderBottom: `2px solid ${p.error.main}` },
        },
        { dark },
      ),
      ...(mark ? [markExtension(mark)] : []),
    ];
  }, [theme, dark, label, firstLineNumber, mark]);

  // One editor per code / theme; the chunks are appended below.
  const view = useRef<EditorView | null>(null);
  useEffect(() => {
    if (!host.current) return;
    const editor = new EditorView({
      state: EditorState.create({ doc: chunks.slice(0, Math.max(1, doneRef.current)).join(''), extensions }),
      parent: host.current,
    });
    view.current = editor;
    return () => {
      editor.destroy();
      view.current = null;
    };
  }, [chunks, extensions]);

  useEffect(() => {
    if (done >= chunks.length) return;
    const timer = setTimeout(() => {
      const editor = view.current;
      const next = chunks[done];
      if (editor && next !== undefined) {
        editor.dispatch({ changes: { from: editor.state.doc.length, insert: next } });
      }
      setProgress({ chunks, done: done + 1 });
    }, 0);
    return () => clearTimeout(timer);
  }, [chunks, done]);

  const rendering = chunks.length > 1 && done < chunks.length;
  const percent = renderingPercent(done, chunks.length);
  return (
    <Box>
      {rendering ? (
        <Box role="status" sx={{ mb: 1 }}>
          <Typography variant="body2">Rendering: {percent}%</Typography>
          <LinearProgress variant="determinate" value={percent} aria-label="Rendering code" />
        </Box>
      ) : null}
      <Box
        ref={host}
        role="region"
        aria-label={label}
        aria-busy={rendering}
        sx={{ maxHeight, overflow: 'auto', '& .cm-editor': { outline: 'none' } }}
      />
    </Box>
  );
}
