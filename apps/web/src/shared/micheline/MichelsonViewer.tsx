/**
 * Read-only Michelson viewer on CodeMirror 6 (bcd-frontend.md §3.1): highlighted, line numbers, line
 * wrapping, themed from MUI, with CodeMirror's search panel (Ctrl/Cmd+F, go to line with Ctrl/Cmd+Alt+G).
 * Long code is appended in chunks of 35,000 characters, one per tick, with a 'Rendering: N%' label, so the
 * page stays responsive. An optional span (error location) is marked red.
 * Pages show ./MichelsonCode, which draws the same look without CodeMirror and loads this module when the
 * reader interacts with the code (click, search).
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { EditorState, RangeSetBuilder, type Extension } from '@codemirror/state';
import { Decoration, EditorView, keymap, lineNumbers } from '@codemirror/view';
import { HighlightStyle, StreamLanguage, syntaxHighlighting } from '@codemirror/language';
import { openSearchPanel, search, searchKeymap } from '@codemirror/search';
import { tags } from '@lezer/highlight';
import { useTheme } from '@mui/material/styles';
import Box from '@mui/material/Box';
import { codeChunks, michelsonMode } from './michelson-mode';
import { RenderingProgress } from './RenderingProgress';
import { CODE_CHUNK, type CodeMark } from './michelson-tokens';
import {
  CODE_FONT,
  CODE_FONT_SIZE,
  FAILED_BACKGROUND,
  GUTTER_COLOR,
  michelsonPalette,
} from './michelson-palette';

export { CODE_CHUNK, type CodeMark } from './michelson-tokens';

interface Props {
  code: string;
  label: string;
  /** Number of the first shown line (a window of a larger script). */
  firstLineNumber?: number;
  mark?: CodeMark | null;
  maxHeight?: number | string;
  /** Where the reader was in the light view: this line (1-based in the shown text) at the top. */
  topLine?: { line: number } | null;
  /** Focus the editor once shown (the reader clicked or typed in the code). */
  autoFocus?: boolean;
  /** Opens the search panel whenever it grows (the caller's search action). */
  searchRequests?: number;
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

export function MichelsonViewer({
  code,
  label,
  firstLineNumber = 1,
  mark = null,
  maxHeight = 640,
  topLine = null,
  autoFocus = false,
  searchRequests = 0,
}: Props) {
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
    const palette = michelsonPalette(dark);
    const style = HighlightStyle.define([
      { tag: tags.atom, ...palette.atom },
      { tag: tags.keyword, ...palette.keyword },
      { tag: tags.typeName, ...palette.typeName },
      { tag: tags.variableName, ...palette.variableName },
      { tag: tags.macroName, ...palette.macroName },
      { tag: tags.string, ...palette.string },
      { tag: tags.number, ...palette.number },
      { tag: tags.comment, ...palette.comment },
    ]);
    return [
      EditorState.readOnly.of(true),
      EditorView.editable.of(false),
      EditorView.lineWrapping,
      lineNumbers({ formatNumber: (n) => String(n + firstLineNumber - 1) }),
      language,
      syntaxHighlighting(style),
      search({ top: true }),
      keymap.of(searchKeymap),
      EditorView.contentAttributes.of({
        'aria-label': label,
        'aria-readonly': 'true',
        role: 'textbox',
        'aria-multiline': 'true',
        // not editable, yet focusable: the search keys and the keyboard selection work
        tabindex: '0',
      }),
      EditorView.theme(
        {
          '&': {
            backgroundColor: p.background.paper,
            color: p.text.primary,
            fontSize: `${CODE_FONT_SIZE}px`,
          },
          '.cm-gutters': { backgroundColor: p.background.paper, border: 'none', color: GUTTER_COLOR },
          '.cm-scroller': { fontFamily: CODE_FONT },
          '.cm-failed': { backgroundColor: FAILED_BACKGROUND, borderBottom: `2px solid ${p.error.main}` },
          '.cm-panels': { backgroundColor: p.background.paper, color: p.text.primary },
        },
        { dark },
      ),
      ...(mark ? [markExtension(mark)] : []),
    ];
  }, [theme, dark, label, firstLineNumber, mark]);

  // One editor per code / theme; the chunks are appended below.
  const view = useRef<EditorView | null>(null);
  const initial = useRef<Pick<Props, 'topLine' | 'autoFocus'> | null>({ topLine, autoFocus });
  useEffect(() => {
    if (!host.current) return;
    const editor = new EditorView({
      state: EditorState.create({ doc: chunks.slice(0, Math.max(1, doneRef.current)).join(''), extensions }),
      parent: host.current,
    });
    view.current = editor;
    const start = initial.current;
    if (start) {
      // Where the light view was (its top line at the top), focus and search as asked; once.
      initial.current = null;
      const { doc } = editor.state;
      if (start.topLine && start.topLine.line > 1 && start.topLine.line <= doc.lines) {
        const at = doc.line(start.topLine.line).from;
        editor.dispatch({ effects: EditorView.scrollIntoView(at, { y: 'start', yMargin: 0 }) });
      }
      if (start.autoFocus) editor.focus();
    }
    return () => {
      editor.destroy();
      view.current = null;
    };
  }, [chunks, extensions]);

  useEffect(() => {
    if (searchRequests > 0 && view.current) {
      view.current.focus();
      openSearchPanel(view.current);
    }
  }, [searchRequests]);

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
  return (
    // the progress lies over the code (positioned here): the code's box does not move when it goes
    <Box sx={{ position: 'relative' }}>
      <RenderingProgress done={done} total={chunks.length} />
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
