import { memo, useCallback, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import { alpha, type Theme } from '@mui/material/styles';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import type { MiguelNode } from '@michelscope/api-types';
import { ValueInspector } from './ValueInspector';
import { bigMapCountQuery } from '../../api/bigmap-api';
import { BigMapEntity } from '../entities/BigMapEntity';
import { formatNumber } from '../format/format';
import {
  allContainerIds,
  bigMapPointer,
  changedPathIds,
  flattenTree,
  numericDelta,
  type TreeRow,
} from './miguel-tree';

/** Rows above this count are virtualised (only the visible ones are in the DOM). */
export const VIRTUALISE_ABOVE = 150;
export const ROW_HEIGHT = 28;

interface Props {
  roots: readonly MiguelNode[];
  /** Accessible name of the tree. */
  label: string;
  network: string;
  /** Owning contract, for big map links; none in diffs. */
  address?: string | undefined;
  /** The level the tree's storage is at (absent: now): big maps say how many keys they had then. */
  level?: number | null | undefined;
  diffMode?: boolean;
  /** 'all' opens every node (storage tab); 'changed' only the path to changed nodes (diffs). */
  open?: 'all' | 'changed' | 'none';
  /** Height of the scroll area when virtualised. */
  maxHeight?: number;
  /** Clicking or pressing Enter on a leaf; by default the value inspector opens. */
  onInspect?: ((row: TreeRow) => void) | undefined;
}

const diffColour = (theme: Theme, diff: TreeRow['diff']): string | undefined =>
  diff === 'create'
    ? theme.palette.success.main
    : diff === 'update'
      ? theme.palette.warning.main
      : diff === 'delete'
        ? theme.palette.error.main
        : undefined;

/** A big map's key count; a contract read from the node when first asked for has only the keys written since. */
export function bigMapCountText({ count, partial }: { count: number; partial?: boolean }): string {
  const keys = `${formatNumber(count)} ${count === 1 ? 'key' : 'keys'}`;
  if (!partial) return keys;
  return count === 0 ? 'keys not indexed' : `at least ${keys}`;
}

function BigMapLeaf({
  network,
  address,
  ptr,
  level,
}: {
  network: string;
  address: string;
  ptr: number;
  level: number | null;
}) {
  const count = useQuery(bigMapCountQuery(network, ptr, level));
  return (
    <BigMapEntity
      network={network}
      address={address}
      ptr={ptr}
      detail={count.data === undefined ? undefined : bigMapCountText(count.data)}
    />
  );
}

/**
 * A Miguel tree as an ARIA tree: arrows move and open / close, Home / End jump, Enter inspects a leaf.
 * Large trees are virtualised with @tanstack/react-virtual so that 10,000 nodes stay responsive; a toggle
 * re-renders the rows whose place or state changed (rows are memoised on their row object, which
 * flattenTree keeps from one toggle to the next).
 */
export function MiguelTree({
  roots,
  label,
  network,
  address,
  level = null,
  diffMode = false,
  open = 'all',
  maxHeight = 600,
  onInspect: onInspectProp,
}: Props) {
  const [inspected, setInspected] = useState<TreeRow | null>(null);
  const onInspect = onInspectProp ?? setInspected;
  // the rows see one function for the whole life of the tree (a caller's new function is used all the same)
  const inspectRef = useRef(onInspect);
  useLayoutEffect(() => {
    inspectRef.current = onInspect;
  }, [onInspect]);
  const inspect = useCallback((row: TreeRow) => inspectRef.current(row), []);
  const initial = useMemo(
    () =>
      open === 'all'
        ? allContainerIds(roots)
        : open === 'changed'
          ? changedPathIds(roots)
          : new Set<string>(),
    [roots, open],
  );
  const [state, setState] = useState({ roots, expanded: initial });
  const expanded = state.roots === roots ? state.expanded : initial;
  const rows = useMemo(() => flattenTree(roots, expanded, diffMode), [roots, expanded, diffMode]);
  const [focused, setFocused] = useState(0);
  const active = Math.min(focused, Math.max(rows.length - 1, 0));
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtual = rows.length > VIRTUALISE_ABOVE;

  const virtualizer = useVirtualizer({
    count: virtual ? rows.length : 0,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 20,
    initialRect: { width: 800, height: maxHeight },
  });

  // one toggle for the life of the tree, so that the rows need not re-render when the roots change (the
  // debugger's stack at each step): it reads the roots and their first open nodes of the last render
  const tree = useRef({ roots, initial });
  useLayoutEffect(() => {
    tree.current = { roots, initial };
  }, [roots, initial]);
  const toggle = useCallback((id: string, to?: boolean) => {
    const { roots, initial } = tree.current;
    setState((s) => {
      const current = s.roots === roots ? s.expanded : initial;
      const next = new Set(current);
      const want = to ?? !next.has(id);
      if (want) next.add(id);
      else next.delete(id);
      return { roots, expanded: next };
    });
  }, []);

  const focusRow = (index: number) => {
    const i = Math.max(0, Math.min(rows.length - 1, index));
    setFocused(i);
    if (virtual) virtualizer.scrollToIndex(i);
    requestAnimationFrame(() => {
      scrollRef.current?.querySelector<HTMLElement>(`[data-row="${i}"]`)?.focus();
    });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const row = rows[active];
    if (!row) return;
    const keys: Record<string, () => void> = {
      ArrowDown: () => focusRow(active + 1),
      ArrowUp: () => focusRow(active - 1),
      Home: () => focusRow(0),
      End: () => focusRow(rows.length - 1),
      ArrowRight: () => (row.hasChildren && !row.expanded ? toggle(row.id, true) : focusRow(active + 1)),
      ArrowLeft: () => {
        if (row.hasChildren && row.expanded) return toggle(row.id, false);
        const parentId = row.id.includes('.') ? row.id.slice(0, row.id.lastIndexOf('.')) : null;
        const parent = parentId === null ? -1 : rows.findIndex((r) => r.id === parentId);
        if (parent >= 0) focusRow(parent);
      },
      Enter: () => (row.hasChildren ? toggle(row.id) : onInspect?.(row)),
    };
    const action = keys[event.key];
    if (action) {
      event.preventDefault();
      action();
    }
  };

  const renderRow = (row: TreeRow, index: number, top?: number) => (
    <TreeItem
      key={row.id}
      row={row}
      index={index}
      active={index === active}
      top={top}
      virtual={virtual}
      diffMode={diffMode}
      network={network}
      address={address}
      level={level}
      onToggle={toggle}
      onInspect={inspect}
      onFocusRow={setFocused}
    />
  );

  return (
    <>
      <Box
        ref={scrollRef}
        role="tree"
        aria-label={label}
        onKeyDown={onKeyDown}
        sx={{ overflow: 'auto', maxHeight: virtual ? maxHeight : undefined, position: 'relative' }}
      >
        {virtual ? (
          <Box sx={{ height: virtualizer.getTotalSize(), position: 'relative', minWidth: '100%' }}>
            {virtualizer.getVirtualItems().map((item) => {
              const row = rows[item.index];
              return row ? renderRow(row, item.index, item.start) : null;
            })}
          </Box>
        ) : (
          rows.map((row, i) => renderRow(row, i))
        )}
      </Box>
      <ValueInspector row={inspected} network={network} onClose={() => setInspected(null)} />
    </>
  );
}

interface TreeItemProps {
  row: TreeRow;
  /** The row's index among the shown rows. */
  index: number;
  active: boolean;
  /** Where a virtualised row is (px from the top); undefined: in the flow. */
  top: number | undefined;
  virtual: boolean;
  diffMode: boolean;
  network: string;
  address: string | undefined;
  level: number | null;
  onToggle: (id: string) => void;
  onInspect: (row: TreeRow) => void;
  onFocusRow: (index: number) => void;
}

/** One row of the tree (re-rendered when its row, place or focus changes). */
const TreeItem = memo(function TreeItem(props: TreeItemProps) {
  const { row, index, active, top, onToggle, onInspect, onFocusRow } = props;
  return (
    <Box
      role="treeitem"
      data-row={index}
      aria-level={row.depth + 1}
      aria-setsize={row.size}
      aria-posinset={row.pos}
      aria-expanded={row.hasChildren ? row.expanded : undefined}
      aria-selected={active}
      tabIndex={active ? 0 : -1}
      onFocus={() => onFocusRow(index)}
      onClick={() => (row.hasChildren ? onToggle(row.id) : onInspect(row))}
      style={
        top === undefined
          ? undefined
          : {
              position: 'absolute',
              top: 0,
              left: 0,
              right: 0,
              height: ROW_HEIGHT,
              transform: `translateY(${top}px)`,
            }
      }
      sx={(theme) => ({
        display: 'flex',
        alignItems: 'center',
        minHeight: ROW_HEIGHT,
        pl: row.depth * 2,
        gap: 0.5,
        fontFamily: 'monospace',
        fontSize: 14,
        cursor: 'pointer',
        whiteSpace: 'nowrap',
        bgcolor: row.diff ? alpha(diffColour(theme, row.diff) ?? '#000', 0.15) : undefined,
        '&:focus-visible': { outline: `2px solid ${theme.palette.primary.main}`, outlineOffset: -2 },
      })}
    >
      <RowContent
        row={row}
        virtual={props.virtual}
        diffMode={props.diffMode}
        network={props.network}
        address={props.address}
        level={props.level}
      />
    </Box>
  );
});

/** What a row shows: its toggle icon, label, value and count (re-rendered only when its row changes). */
const RowContent = memo(function RowContent({
  row,
  virtual,
  diffMode,
  network,
  address,
  level,
}: Pick<TreeItemProps, 'row' | 'virtual' | 'diffMode' | 'network' | 'address' | 'level'>) {
  const ptr = bigMapPointer(row.node);
  return (
    <>
      {row.hasChildren ? (
        <IconButton size="small" tabIndex={-1} aria-hidden="true" sx={{ p: 0 }}>
          {row.expanded ? <ExpandMoreIcon fontSize="small" /> : <ChevronRightIcon fontSize="small" />}
        </IconButton>
      ) : (
        <Box component="span" sx={{ width: 20, flexShrink: 0 }} />
      )}
      {/* label, value and count: on a narrow screen the value goes under its label rather than out of
          sight (fixed-height virtualised rows stay on one line) */}
      <Box
        component="span"
        sx={{
          display: 'flex',
          flexWrap: virtual ? 'nowrap' : 'wrap',
          alignItems: 'baseline',
          columnGap: 0.5,
          flex: 1,
          minWidth: 0,
        }}
      >
        <Box
          component="span"
          sx={
            virtual
              ? { opacity: 0.8 }
              : { opacity: 0.8, whiteSpace: 'normal', overflowWrap: 'anywhere', minWidth: 0 }
          }
        >
          {row.label}
          {row.value !== '' || ptr !== null ? ':' : ''}
        </Box>
        {ptr !== null && !diffMode && address ? (
          <BigMapLeaf network={network} address={address} ptr={ptr} level={level} />
        ) : row.from !== '' ? (
          <Box component="span" sx={{ overflow: 'hidden', textOverflow: 'ellipsis', maxWidth: '100%' }}>
            <Box component="span" sx={{ textDecoration: 'line-through', opacity: 0.7 }}>
              {row.from}
            </Box>
            {' ➛ '}
            <Box component="span" sx={(t) => ({ color: diffColour(t, row.diff) })}>
              {row.value}
            </Box>{' '}
            {numericDelta(row.node.type ?? '', row.node.from, row.node.value)}
          </Box>
        ) : (
          <Box
            component="span"
            title={row.value.length > 80 ? row.value : undefined}
            sx={(t) => ({
              color: diffColour(t, row.diff) ?? t.palette.success.light,
              overflow: 'hidden',
              textOverflow: 'ellipsis',
              maxWidth: '100%',
            })}
          >
            {ptr !== null ? `Big Map ${ptr}` : row.value}
          </Box>
        )}
        {row.count ? (
          <Box component="span" sx={{ color: 'text.secondary', fontSize: 12 }}>
            {row.count}
          </Box>
        ) : null}
      </Box>
    </>
  );
});
