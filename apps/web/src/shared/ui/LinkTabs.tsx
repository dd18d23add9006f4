/**
 * A strip of tabs that are links (the account / contract frame's tabs), lighter than MUI's `Tabs`: one
 * styled element for the whole strip and plain router links for the tabs (MUI draws each tab as a
 * ButtonBase with its ripple, and its scrollable `Tabs` measures the scrollbar and every tab in layout
 * effects, a forced layout of the page during the first commit: issue 18). Same look as
 * `<Tabs variant="scrollable" scrollButtons="auto" allowScrollButtonsMobile>` with `<Tab>`s: typography,
 * sizes, colours, the selected tab's 2 px underline, scroll arrows when the tabs overflow.
 *
 * Accessibility as MUI's: role=tablist with its label, role=tab with aria-selected on each link, roving
 * focus (only the selected tab is in the tab order), ArrowLeft / ArrowRight (wrapping), Home and End move
 * the focus; Enter follows the focused link.
 */
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { Link } from 'react-router';
import Box from '@mui/material/Box';
import type { SxProps, Theme } from '@mui/material/styles';

export interface LinkTab {
  id: string;
  label: string;
  to: string;
  /** The element the tab controls (aria-controls), for the selected tab. */
  controls?: string | undefined;
}

interface Props {
  tabs: readonly LinkTab[];
  selected: string;
  label: string;
  /** The id of each tab element: `${idPrefix}${tab.id}`. */
  idPrefix: string;
  sx?: SxProps<Theme>;
}

const STRIP: SxProps<Theme> = (theme) => ({
  display: 'flex',
  minHeight: 48,
  overflow: 'hidden',
  '& .ms-tabs-scroller': {
    flex: '1 1 auto',
    display: 'flex',
    overflowX: 'auto',
    overflowY: 'hidden',
    whiteSpace: 'nowrap',
    scrollbarWidth: 'none',
    '&::-webkit-scrollbar': { display: 'none' },
  },
  '& .ms-tab': {
    ...theme.typography.button,
    maxWidth: 360,
    minWidth: 90,
    minHeight: 48,
    flexShrink: 0,
    padding: '12px 16px',
    boxSizing: 'border-box',
    display: 'inline-flex',
    alignItems: 'center',
    justifyContent: 'center',
    textAlign: 'center',
    textDecoration: 'none',
    color: theme.palette.text.secondary,
    // the indicator: MUI's 2 px primary line at the bottom of the selected tab
    borderBottom: '2px solid transparent',
    outline: 0,
    transition: theme.transitions.create(['color', 'border-color', 'background-color'], {
      duration: theme.transitions.duration.shortest,
    }),
    '&:hover': { color: theme.palette.text.primary },
    '&:focus-visible': { backgroundColor: theme.palette.action.focus },
  },
  '& .ms-tab[aria-selected="true"]': {
    color: theme.palette.primary.main,
    borderBottomColor: theme.palette.primary.main,
  },
  '& .ms-tabs-arrow': {
    width: 40,
    flexShrink: 0,
    display: 'inline-flex',
    alignItems: 'center',
    justifyContent: 'center',
    padding: 0,
    border: 0,
    background: 'none',
    color: 'inherit',
    opacity: 0.8,
    cursor: 'pointer',
    '&:disabled': { opacity: 0, cursor: 'default' },
    '& svg': { width: 20, height: 20, fill: 'currentColor' },
  },
});

/** MUI's KeyboardArrowLeft / KeyboardArrowRight paths. */
const LEFT = 'M15.41 16.09l-4.58-4.59 4.58-4.59L14 5.5l-6 6 6 6z';
const RIGHT = 'M8.59 16.34l4.58-4.59-4.58-4.59L10 5.75l6 6-6 6z';

interface Overflow {
  start: boolean;
  end: boolean;
}

export function LinkTabs({ tabs, selected, label, idPrefix, sx }: Props) {
  const scroller = useRef<HTMLDivElement>(null);
  // null: the tabs fit (no arrows); measured after the first paint, never during a commit
  const [overflow, setOverflow] = useState<Overflow | null>(null);

  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const measure = () => {
      const max = el.scrollWidth - el.clientWidth;
      const next = max > 1 ? { start: el.scrollLeft > 1, end: el.scrollLeft < max - 1 } : null;
      setOverflow((old) =>
        old === next || (old && next && old.start === next.start && old.end === next.end) ? old : next,
      );
    };
    let first = true;
    // the observer's first call comes after layout: a fitting strip costs no forced layout
    const observer =
      typeof ResizeObserver === 'undefined'
        ? null
        : new ResizeObserver(() => {
            if (first) {
              first = false;
              // the selected tab in view (MUI scrolls it into view too), within the strip only
              const tab = el.querySelector<HTMLElement>('[aria-selected="true"]');
              if (tab && tab.offsetLeft + tab.offsetWidth > el.scrollLeft + el.clientWidth) {
                el.scrollLeft = tab.offsetLeft + tab.offsetWidth - el.clientWidth;
              }
            }
            measure();
          });
    observer?.observe(el);
    el.addEventListener('scroll', measure, { passive: true });
    return () => {
      observer?.disconnect();
      el.removeEventListener('scroll', measure);
    };
  }, []);

  // A tab that appears after the first layout (the Source tab once the contract's source answered, Tokens,
  // Views…) or the arrows appearing (the strip narrower by their width) can leave the selected tab cut at the
  // edge: bring it back into view, within the strip only. Not on the first commit (the observer does that,
  // without a forced layout).
  const tabIds = tabs.map((t) => t.id).join(' ');
  const overflowing = overflow !== null;
  const laidOut = useRef(false);
  useEffect(() => {
    if (!laidOut.current) {
      laidOut.current = true;
      return;
    }
    const el = scroller.current;
    const tab = el?.querySelector<HTMLElement>('[aria-selected="true"]');
    if (!el || !tab) return;
    const strip = el.getBoundingClientRect();
    const at = tab.getBoundingClientRect();
    if (at.right > strip.right + 1) el.scrollLeft += at.right - strip.right;
    else if (at.left < strip.left - 1) el.scrollLeft -= strip.left - at.left;
  }, [selected, tabIds, overflowing]);

  const scrollBy = (direction: 1 | -1) => {
    const el = scroller.current;
    if (el) el.scrollBy({ left: direction * el.clientWidth, behavior: 'smooth' });
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const list = [...e.currentTarget.querySelectorAll<HTMLElement>('[role="tab"]')];
    const at = list.indexOf(document.activeElement as HTMLElement);
    if (at < 0 || list.length === 0) return;
    const next =
      e.key === 'ArrowRight'
        ? (at + 1) % list.length
        : e.key === 'ArrowLeft'
          ? (at - 1 + list.length) % list.length
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? list.length - 1
              : null;
    if (next === null) return;
    e.preventDefault();
    list[next]!.focus();
  };

  const arrow = (direction: 1 | -1) =>
    overflow ? (
      <button
        type="button"
        className="ms-tabs-arrow"
        tabIndex={-1}
        aria-hidden="true"
        disabled={direction === 1 ? !overflow.end : !overflow.start}
        onClick={() => scrollBy(direction)}
      >
        <svg viewBox="0 0 24 24" focusable="false">
          <path d={direction === 1 ? RIGHT : LEFT} />
        </svg>
      </button>
    ) : null;

  return (
    <Box sx={[STRIP, ...(Array.isArray(sx) ? sx : sx ? [sx] : [])]}>
      {arrow(-1)}
      <div
        className="ms-tabs-scroller"
        ref={scroller}
        role="tablist"
        aria-label={label}
        onKeyDown={onKeyDown}
      >
        {tabs.map((t) => {
          const isSelected = t.id === selected;
          return (
            <Link
              key={t.id}
              className="ms-tab"
              role="tab"
              id={`${idPrefix}${t.id}`}
              aria-selected={isSelected}
              aria-controls={isSelected ? t.controls : undefined}
              tabIndex={isSelected ? 0 : -1}
              to={t.to}
            >
              {t.label}
            </Link>
          );
        })}
      </div>
      {arrow(1)}
    </Box>
  );
}
