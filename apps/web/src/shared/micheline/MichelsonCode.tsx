/**
 * Michelson code as pages show it first: highlighted, numbered and wrapped like the CodeMirror viewer
 * (./MichelsonViewer, same colours, font, gutter and paddings), drawn by our own tokenizer
 * (./michelson-tokens) in plain DOM, so that CodeMirror (~72 kB) is not part of a page's first download.
 *
 * CodeMirror loads when the reader interacts with the code: a click in it (without selecting text),
 * Ctrl/Cmd+F or Ctrl/Cmd+Alt+G in it, or the caller's search action (`ref.search()`); it then replaces
 * this view at the same top line. Hovering or focusing the code starts the download ahead.
 *
 * Every line is in the page (find in page, select, copy, the line numbers), but only the pieces of about
 * 5,000 characters near the box's visible part are highlighted (token spans, an IntersectionObserver on the
 * scroll box, one box height ahead above and below); the others are plain lines, the same text in the same
 * font, so that a large script costs one element per line instead of ~10, and no tokenizing, until the
 * reader scrolls to it. The line with a mark is highlighted from the start. Long code is drawn in ticks of
 * about 35,000 characters with a 'Rendering: N%' label (as the editor does); every piece is
 * `content-visibility: auto`, so the browser lays out and paints only those on screen.
 */
import { memo, useEffect, useImperativeHandle, useMemo, useRef, useState, type Ref } from 'react';
import { useTheme } from '@mui/material/styles';
import Box from '@mui/material/Box';
import { ssrMarkup } from '../ssr/server-page';
import { RenderingProgress } from './RenderingProgress';
import {
  CODE_FONT,
  CODE_FONT_SIZE,
  CODE_LINE_HEIGHT,
  FAILED_BACKGROUND,
  GUTTER_COLOR,
  maxLineNumber,
  michelsonPalette,
} from './michelson-palette';
import {
  CODE_CHUNK,
  LIGHT_CHUNK,
  chunkTokenizer,
  lineChunks,
  markTokens,
  type CodeMark,
  type Token,
} from './michelson-tokens';
import type { MichelsonViewer } from './MichelsonViewer';

let editorModule: Promise<typeof import('./MichelsonViewer')> | null = null;
/** The CodeMirror viewer's module, downloaded once. */
export const loadEditor = () => {
  editorModule ??= import('./MichelsonViewer');
  editorModule.catch(() => (editorModule = null));
  return editorModule;
};

export interface MichelsonCodeHandle {
  /** Opens the search (CodeMirror's panel, loaded then). */
  search(): void;
}

interface Props {
  code: string;
  label: string;
  /** Number of the first shown line (a window of a larger script). */
  firstLineNumber?: number;
  mark?: CodeMark | null;
  /** Scrolls the marked line into view once it is drawn (the Code tab's `?line=`). */
  scrollToMark?: boolean;
  maxHeight?: number | string;
  ref?: Ref<MichelsonCodeHandle>;
}

/** What the editor is asked for when it replaces this view. */
interface Upgrade {
  autoFocus: boolean;
  searches: number;
}

export function MichelsonCode({ ref, ...props }: Props) {
  const [editor, setEditor] = useState<typeof MichelsonViewer | null>(null);
  const [upgrade, setUpgrade] = useState<Upgrade | null>(null);
  const [topLine, setTopLine] = useState<{ line: number } | null>(null);
  const scroller = useRef<HTMLDivElement>(null);

  const ask = (wanted: { focus?: boolean; search?: boolean }) => {
    setUpgrade((u) => ({
      autoFocus: (u?.autoFocus ?? false) || wanted.focus === true,
      searches: (u?.searches ?? 0) + (wanted.search ? 1 : 0),
    }));
    void loadEditor().then(
      (m) => {
        // The line at the top now (the reader may have scrolled while it downloaded).
        setTopLine(scroller.current ? topLineOf(scroller.current, props.firstLineNumber ?? 1) : null);
        setEditor(() => m.MichelsonViewer);
      },
      () => setUpgrade(null), // offline: the light view stays
    );
  };
  useImperativeHandle(ref, () => ({ search: () => ask({ search: true, focus: true }) }));

  if (editor && upgrade) {
    const Editor = editor;
    const { scrollToMark: _scroll, ...editorProps } = props;
    return (
      <Editor
        {...editorProps}
        topLine={topLine}
        autoFocus={upgrade.autoFocus}
        searchRequests={upgrade.searches}
      />
    );
  }
  return <LightCode {...props} scroller={scroller} onInteract={ask} />;
}

/** The shown line (1-based in the text) at the top of the scrolled box, or null at the start. */
function topLineOf(box: HTMLElement, firstLineNumber: number): { line: number } | null {
  const top = box.getBoundingClientRect().top;
  for (const chunk of box.querySelectorAll<HTMLElement>('[data-chunk]')) {
    if (chunk.getBoundingClientRect().bottom <= top) continue;
    const lines = chunk.querySelectorAll<HTMLElement>('[data-n]');
    let lo = 0;
    let hi = lines.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (lines[mid]!.getBoundingClientRect().bottom <= top) lo = mid + 1;
      else hi = mid;
    }
    const n = Number(lines[lo]?.dataset.n);
    return Number.isFinite(n) ? { line: n - firstLineNumber + 1 } : null;
  }
  return null;
}

function LightCode({
  code,
  label,
  firstLineNumber = 1,
  mark = null,
  scrollToMark = false,
  maxHeight = 640,
  scroller,
  onInteract,
}: Omit<Props, 'ref'> & {
  scroller: Ref<HTMLDivElement>;
  onInteract: (wanted: { focus?: boolean; search?: boolean }) => void;
}) {
  const theme = useTheme();
  const dark = theme.palette.mode === 'dark';
  const chunks = useMemo(() => lineChunks(code, LIGHT_CHUNK), [code]);
  const tokens = useMemo(() => chunkTokenizer(chunks), [chunks]);
  const ticks = useMemo(() => drawTicks(chunks, CODE_CHUNK), [chunks]);
  // `done` ticks are drawn; a new code starts again with its first tick. The server's rendering of the page
  // (no effects run there) draws every line at once: the reader gets the whole code with the page; and so
  // does the app when it takes that page over (the code shown whole must not shrink to its first tick).
  const [progress, setProgress] = useState(() => ({ chunks, done: ssrMarkup() ? ticks.length : 1 }));
  const done = ON_SERVER
    ? ticks.length
    : Math.min(ticks.length, progress.chunks === chunks ? progress.done : 1);
  useEffect(() => {
    if (done >= ticks.length) return;
    const timer = setTimeout(() => setProgress({ chunks, done: done + 1 }), 0);
    return () => clearTimeout(timer);
  }, [chunks, ticks, done]);
  const drawn = ticks[done - 1]!;

  // The pieces near the visible part, highlighted (and kept so); the first one and the marked one at once.
  const markChunk = mark ? chunkOfLine(chunks, mark.line) : -1;
  const [near, setNear] = useState({ chunks, lit: new Set<number>() });
  const lit = near.chunks === chunks ? near.lit : EMPTY;
  const box = useRef<HTMLDivElement | null>(null);
  useEffect(() => {
    const root = box.current;
    if (!root) return;
    if (typeof IntersectionObserver === 'undefined') {
      // no observer (old browsers, jsdom): everything is highlighted
      setNear({ chunks, lit: new Set(chunks.keys()) });
      return;
    }
    const observer = new IntersectionObserver(
      (entries) => {
        const seen = entries
          .filter((e) => e.isIntersecting)
          .map((e) => Number((e.target as HTMLElement).dataset.chunk));
        if (seen.length === 0) return;
        setNear((n) => {
          const old = n.chunks === chunks ? n.lit : EMPTY;
          if (seen.every((i) => old.has(i))) return n;
          return { chunks, lit: new Set([...old, ...seen]) };
        });
      },
      { root, rootMargin: '100% 0px' },
    );
    for (const el of root.querySelectorAll('[data-chunk]')) observer.observe(el);
    return () => observer.disconnect();
  }, [chunks, drawn]);

  // the marked line, scrolled to once its piece is drawn (once per line)
  const scrolledTo = useRef<number | null>(null);
  useEffect(() => {
    if (!scrollToMark || !mark || scrolledTo.current === mark.line) return;
    const el = box.current?.querySelector<HTMLElement>(`[data-n="${mark.line + firstLineNumber - 1}"]`);
    if (!el) return;
    scrolledTo.current = mark.line;
    el.scrollIntoView?.({ block: 'center' });
  }, [scrollToMark, mark, firstLineNumber, drawn]);

  const lineCount = useMemo(() => chunks.reduce((n, c) => n + c.length, 0), [chunks]);
  const digits = String(maxLineNumber(lineCount) + firstLineNumber - 1).length;
  const sx = useMemo(() => {
    const palette = michelsonPalette(dark);
    const p = theme.palette;
    return {
      maxHeight,
      overflow: 'auto',
      bgcolor: p.background.paper,
      color: p.text.primary,
      fontFamily: CODE_FONT,
      fontSize: CODE_FONT_SIZE,
      lineHeight: CODE_LINE_HEIGHT,
      '& [data-chunk]': { contentVisibility: 'auto' },
      '& [data-n]': { display: 'flex' },
      // the gutter: CodeMirror's line numbers (sized for 9, 99, 999…: maxLineNumber), never copied or read
      '& [data-n]::before': {
        content: 'attr(data-n) / ""',
        flex: 'none',
        boxSizing: 'border-box',
        minWidth: 20,
        width: `calc(${digits}ch + 8px)`,
        padding: '0 3px 0 5px',
        textAlign: 'right',
        whiteSpace: 'nowrap',
        color: GUTTER_COLOR,
        userSelect: 'none',
      },
      '& .ms-text': {
        flex: '1 1 0',
        minWidth: 0,
        padding: '0 2px 0 6px',
        whiteSpace: 'pre-wrap',
        wordBreak: 'break-word',
        overflowWrap: 'anywhere',
      },
      ...Object.fromEntries(Object.entries(palette).map(([cls, style]) => [`& .ms-${cls}`, style])),
      '& [data-failed]': { backgroundColor: FAILED_BACKGROUND, borderBottom: `2px solid ${p.error.main}` },
    };
  }, [theme, dark, maxHeight, digits]);

  const shown: { lines: string[]; tokens: Token[][] | null; first: number }[] = [];
  for (let i = 0, first = 0; i < drawn; first += chunks[i]!.length, i++) {
    const highlight = i === 0 || i === markChunk || lit.has(i);
    shown.push({ lines: chunks[i]!, tokens: highlight ? tokens(i) : null, first });
  }
  const rendering = ticks.length > 1 && done < ticks.length;
  const setBox = (el: HTMLDivElement | null) => {
    box.current = el;
    if (typeof scroller === 'function') scroller(el);
    else if (scroller) scroller.current = el;
  };
  return (
    // the progress lies over the code (positioned here): the code's box does not move when it goes
    <Box sx={{ position: 'relative' }}>
      <RenderingProgress done={done} total={ticks.length} />
      <Box
        ref={setBox}
        role="region"
        aria-label={label}
        aria-busy={rendering}
        tabIndex={0}
        sx={sx}
        onPointerEnter={() => void loadEditor().catch(() => {})}
        onFocus={() => void loadEditor().catch(() => {})}
        onClick={(e) => {
          // a selection is the reader's to copy: only a plain click brings the editor
          if (e.button === 0 && (window.getSelection()?.isCollapsed ?? true)) onInteract({ focus: true });
        }}
        onKeyDown={(e) => {
          const mod = e.ctrlKey || e.metaKey;
          if (mod && (e.key === 'f' || e.key === 'F')) {
            e.preventDefault();
            onInteract({ search: true, focus: true });
          } else if (mod && e.altKey && (e.key === 'g' || e.code === 'KeyG')) {
            e.preventDefault();
            onInteract({ search: true, focus: true });
          } else if (mod && (e.key === 'a' || e.key === 'A')) {
            // select all of the code, not all of the page
            e.preventDefault();
            const selection = window.getSelection();
            const range = document.createRange();
            range.selectNodeContents(e.currentTarget);
            selection?.removeAllRanges();
            selection?.addRange(range);
          }
        }}
      >
        <Box sx={{ py: '4px' }}>
          {shown.map((c, i) => (
            <CodeChunk
              key={i}
              index={i}
              lines={c.lines}
              tokens={c.tokens}
              first={c.first}
              firstLineNumber={firstLineNumber}
              mark={mark && mark.line > c.first && mark.line <= c.first + c.lines.length ? mark : null}
            />
          ))}
        </Box>
      </Box>
    </Box>
  );
}

/** Rendering on the server (apps/web/src/ssr): no document, no effects. */
const ON_SERVER = typeof document === 'undefined';
const EMPTY: ReadonlySet<number> = new Set();

/** The index of the piece that holds `line` (1-based in the shown text), or -1. */
function chunkOfLine(chunks: readonly string[][], line: number): number {
  for (let i = 0, first = 0; i < chunks.length; first += chunks[i]!.length, i++) {
    if (line > first && line <= first + chunks[i]!.length) return i;
  }
  return -1;
}

/**
 * How many pieces are drawn after each tick: pieces until about `size` characters more each time (at least
 * one piece per tick).
 */
export function drawTicks(chunks: readonly string[][], size: number): number[] {
  const ticks: number[] = [];
  let chars = 0;
  chunks.forEach((lines, i) => {
    const n = lines.reduce((sum, l) => sum + l.length + 1, 0);
    if (chars > 0 && chars + n > size) {
      ticks.push(i);
      chars = 0;
    }
    chars += n;
  });
  ticks.push(chunks.length);
  return ticks;
}

/** The estimated height of a line (13 px × 1.4), until the browser has laid out a chunk. */
const LINE_PX = CODE_FONT_SIZE * CODE_LINE_HEIGHT;

const CodeChunk = memo(function CodeChunk(props: {
  index: number;
  lines: string[];
  /** The lines' tokens when the piece is highlighted; null: plain lines. */
  tokens: Token[][] | null;
  /** Index of the chunk's first line in the text (0-based). */
  first: number;
  firstLineNumber: number;
  mark: CodeMark | null;
}) {
  const { lines, tokens, first, firstLineNumber, mark } = props;
  // One HTML string per chunk (every text escaped, fixed class names): the browser parses ~1,000 lines
  // several times faster than React creates their ~10,000 elements.
  const html = useMemo(
    () =>
      tokens
        ? chunkHtml({ lines: tokens, first, firstLineNumber, mark })
        : chunkHtml({
            lines: lines.map((text) => [{ text, cls: null }]),
            first,
            firstLineNumber,
            mark: null,
          }),
    [lines, tokens, first, firstLineNumber, mark],
  );
  return (
    <div
      data-chunk={props.index}
      style={{ containIntrinsicSize: `auto ${Math.ceil(lines.length * LINE_PX)}px` }}
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
});

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
/** Text as HTML text content. */
const escapeHtml = (text: string) => text.replace(/[&<>"]/g, (c) => ESCAPES[c]!);
const CLASSES = new Set([
  'atom',
  'keyword',
  'typeName',
  'variableName',
  'macroName',
  'string',
  'number',
  'comment',
]);

/** A token as HTML: a class-named span (a known class only), or its escaped text. */
function tokenHtml(token: Token): string {
  const text = escapeHtml(token.text);
  return token.cls && CLASSES.has(token.cls) ? `<span class="ms-${token.cls}">${text}</span>` : text;
}

/** The lines of a chunk as HTML (`<div data-n="N"><span class="ms-text">…</span></div>` each). */
export function chunkHtml(props: {
  lines: Token[][];
  first: number;
  firstLineNumber: number;
  mark: CodeMark | null;
}): string {
  const { lines, first, firstLineNumber, mark } = props;
  let out = '';
  lines.forEach((tokens, i) => {
    let body = '';
    if (mark && mark.line === first + i + 1) {
      for (const t of markTokens(tokens, mark.startCol, mark.endCol)) {
        body += t.marked ? `<span data-failed="true">${tokenHtml(t)}</span>` : tokenHtml(t);
      }
    } else {
      for (const t of tokens) body += tokenHtml(t);
    }
    out += `<div data-n="${first + i + firstLineNumber}"><span class="ms-text">${body}</span></div>`;
  });
  return out;
}
