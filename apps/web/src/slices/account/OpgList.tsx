import {
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type FocusEvent,
  type KeyboardEvent,
  type RefObject,
} from 'react';
import { defaultRangeExtractor, useWindowVirtualizer, type Range } from '@tanstack/react-virtual';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import type { OpgRow } from '../../api/opg-types';
import { OpgRowItem } from './OpgRowItem';
import {
  HEADER_PX,
  listRowKey,
  opgRowKey,
  ROW_ESTIMATE_PX,
  ROW_GAP_PX,
  rowForKey,
  VIRTUALISE_ABOVE,
  withIndex,
} from './opg-list-logic';

/** Scrolled to (after 'N new operations', a row reached by keyboard): clear of the sticky header. */
const SCROLL_MARGIN = { xs: 64, sm: HEADER_PX + 8 };

/** The list's top in the document (px): the window's scroll offset at which its first row is at the top. */
const documentTop = (element: HTMLElement) =>
  Math.round(element.getBoundingClientRect().top + window.scrollY);

const toggleOf = (row: Element | null | undefined) =>
  row?.querySelector<HTMLElement>('[data-opg-toggle]') ?? null;

/**
 * The operations tab's list of operation groups. Up to VIRTUALISE_ABOVE rows it is a plain list (the server's
 * first page is one); longer, only the rows near the viewport are in the DOM (issue 36): the page scrolls as
 * a whole, so the window is the virtualiser's scroller, and the rows, whose heights vary (wrapping on a phone,
 * an opened group), are measured. What a person can do is the same in both: open a group (a row scrolled
 * away and back stays open), Tab through the rows (the focused one stays in the DOM), ↓ / ↑ / Home / End
 * from a row's toggle to another row's.
 */
export function OpgList({
  network,
  rows,
  newKeys,
  complete,
  listRef,
}: {
  network: string;
  rows: readonly OpgRow[];
  /** Keys (opgRowKey) of the rows that arrived live. */
  newKeys: ReadonlySet<string>;
  /** Every row is loaded: the list's length is known (aria-setsize; -1 until then). */
  complete: boolean;
  listRef: RefObject<HTMLUListElement | null>;
}) {
  const virtual = rows.length > VIRTUALISE_ABOVE;
  const keys = useMemo(() => rows.map(listRowKey), [rows]);
  const [opened, setOpened] = useState<ReadonlySet<string>>(() => new Set());
  const toggle = useCallback(
    (key: string) =>
      setOpened((open) => {
        const next = new Set(open);
        if (!next.delete(key)) next.add(key);
        return next;
      }),
    [],
  );

  // Heights of the rows (and the list's top) measured while the list was plain: when it turns virtual, its rows
  // stand where they stood and the reader sees no jump.
  const sizes = useRef(new Map<string, number>());
  // a row not measured yet: as high as the rows measured (a phone's rows wrap, twice a wide screen's)
  const typical = useRef(ROW_ESTIMATE_PX);
  const plainTop = useRef(0);
  const [listTop, setListTop] = useState<number | null>(null);
  useEffect(() => {
    const list = listRef.current;
    if (!list || virtual || typeof ResizeObserver === 'undefined') return;
    // read when the browser has laid the rows out anyway (a resize observer's time): no layout of its own
    const observer = new ResizeObserver(() => {
      plainTop.current = documentTop(list);
      let total = 0;
      let count = 0;
      [...list.children].forEach((row, i) => {
        const key = keys[i];
        const height = (row as HTMLElement).offsetHeight;
        if (key === undefined || height === 0) return;
        sizes.current.set(key, height);
        total += height;
        count += 1;
      });
      if (count > 0) typical.current = Math.round(total / count);
    });
    // the rows, and the page (what is above the list moves it)
    for (const row of [...list.children, document.body]) observer.observe(row);
    return () => observer.disconnect();
  }, [virtual, keys, listRef]);
  // Virtual: the browser's scroll anchoring is off for the page, the virtualiser keeps the rows read in place
  // itself (its rows are no anchors: the anchor would be the 'Load more' button below them, kept in sight while
  // pages arrive, and the list would load page after page). The list's top follows what is above it (the info
  // card's data, the 'N new operations' bar), the rows read staying where they are.
  useLayoutEffect(() => {
    const list = listRef.current;
    if (!list || !virtual) return;
    const root = document.documentElement;
    const anchoring = root.style.overflowAnchor;
    root.style.overflowAnchor = 'none';
    let last: number | null = null;
    const measure = () => {
      const next = documentTop(list);
      if (last !== null && next !== last && window.scrollY > last) window.scrollBy(0, next - last);
      last = next;
      setListTop(next);
    };
    measure();
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(measure);
    observer?.observe(document.body);
    return () => {
      observer?.disconnect();
      root.style.overflowAnchor = anchoring;
    };
  }, [virtual, listRef]);

  // the row holding the focus stays rendered, however far it is scrolled
  const [focused, setFocused] = useState<string | null>(null);
  const focusedIndex = virtual && focused !== null ? keys.indexOf(focused) : -1;
  const getItemKey = useCallback((i: number) => keys[i] ?? i, [keys]);
  const rangeExtractor = useCallback(
    (range: Range) => withIndex(defaultRangeExtractor(range), focusedIndex),
    [focusedIndex],
  );
  const virtualizer = useWindowVirtualizer({
    count: virtual ? rows.length : 0,
    enabled: virtual,
    estimateSize: (i) => sizes.current.get(keys[i] ?? '') ?? typical.current,
    getItemKey,
    gap: ROW_GAP_PX,
    overscan: 5,
    scrollMargin: listTop ?? plainTop.current,
    scrollPaddingStart: HEADER_PX + 8,
    rangeExtractor,
  });

  const rowAt = (index: number) =>
    virtual ? listRef.current?.querySelector(`li[data-index="${index}"]`) : listRef.current?.children[index];
  // a row reached by keyboard in a virtual list: focused once rendered
  const wantFocus = useRef<number | null>(null);
  useLayoutEffect(() => {
    if (wantFocus.current === null) return;
    const button = toggleOf(rowAt(wantFocus.current));
    if (!button) return;
    wantFocus.current = null;
    button.focus({ preventScroll: true });
  });

  const onKeyDown = (event: KeyboardEvent<HTMLUListElement>) => {
    const target = event.target as HTMLElement;
    if (!target.hasAttribute('data-opg-toggle')) return;
    const row = target.closest('[data-testid="opg-row"]');
    const from = virtual
      ? Number(row?.getAttribute('data-index'))
      : [...event.currentTarget.children].indexOf(row as Element);
    const to = Number.isInteger(from) && from >= 0 ? rowForKey(event.key, from, rows.length) : null;
    if (to === null) return;
    event.preventDefault();
    if (to === from) return;
    if (virtual) {
      wantFocus.current = to;
      setFocused(keys[to] ?? null);
      virtualizer.scrollToIndex(to);
      return;
    }
    const next = rowAt(to);
    if (!next) return;
    toggleOf(next)?.focus({ preventScroll: true });
    // into sight, clear of the sticky header
    const { top, bottom } = next.getBoundingClientRect();
    if (top < HEADER_PX + 8) window.scrollBy(0, top - HEADER_PX - 8);
    else if (bottom > window.innerHeight) window.scrollBy(0, bottom - window.innerHeight + 8);
  };
  const onFocus = (event: FocusEvent<HTMLUListElement>) => {
    if (!virtual) return;
    const index = (event.target as HTMLElement)
      .closest('[data-testid="opg-row"]')
      ?.getAttribute('data-index');
    const key = index ? keys[Number(index)] : undefined;
    if (key !== undefined && key !== focused) setFocused(key);
  };
  const onBlur = (event: FocusEvent<HTMLUListElement>) => {
    // to elsewhere on the page (when the window loses the focus, its active element stays: the row is kept for
    // its return)
    const to = event.relatedTarget ?? document.activeElement;
    if (focused !== null && !event.currentTarget.contains(to)) setFocused(null);
  };

  const item = (row: OpgRow, key: string, index?: number, start?: number) => (
    <OpgRowItem
      key={key}
      rowKey={key}
      network={network}
      row={row}
      open={opened.has(key)}
      onToggle={toggle}
      isNew={!row.mempool && newKeys.has(opgRowKey(row))}
      index={index}
      top={start}
      setSize={index === undefined || !complete ? -1 : rows.length}
      measure={index === undefined ? undefined : virtualizer.measureElement}
    />
  );
  const common = {
    'aria-label': 'Operation groups',
    ref: listRef,
    onKeyDown,
    onFocus,
    onBlur,
  };

  if (!virtual) {
    return (
      <Stack component="ul" spacing={1} {...common} sx={{ p: 0, m: 0, scrollMarginTop: SCROLL_MARGIN }}>
        {rows.map((row, i) => item(row, keys[i]!))}
      </Stack>
    );
  }
  const margin = virtualizer.options.scrollMargin;
  return (
    <Box
      component="ul"
      {...common}
      sx={{ p: 0, m: 0, position: 'relative', scrollMarginTop: SCROLL_MARGIN }}
      style={{ height: virtualizer.getTotalSize() }}
    >
      {virtualizer.getVirtualItems().map(({ index, start }) => {
        const row = rows[index];
        const key = keys[index];
        return row && key !== undefined ? item(row, key, index, start - margin) : null;
      })}
    </Box>
  );
}
