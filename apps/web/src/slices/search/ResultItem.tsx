import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import { itemName, itemFragment, itemKind, itemVerified, type SearchItem } from '../../api/search-items';
import { shorten } from '../../shared/format/format';
import { Highlighted } from '../../shared/highlight/Highlighted';
import { VerifiedBadge } from '../../shared/ui/VerifiedBadge';
import { operationStatus } from './search-logic';

export function resultTitle(item: SearchItem): string {
  switch (item.type) {
    case 'account':
      return itemName(item) || item.body.Address || item.value;
    case 'operation':
      return shorten(item.body.Hash || item.value, 12, 8);
    case 'bigmapkey':
      return item.body.KeyHash ? shorten(item.body.KeyHash, 12, 8) : item.value;
    case 'token':
      return item.body.Name || `Token ${item.body.TokenID}`;
  }
}

/** One search result: kind, network, title and the highlighted fragment that matched. */
export function ResultItem({
  item,
  selected,
  onSelect,
}: {
  item: SearchItem;
  selected: boolean;
  onSelect: () => void;
}) {
  const kind = itemKind(item);
  const fragment = itemFragment(item);
  const extra =
    item.type === 'operation'
      ? ` · ${operationStatus(item)}`
      : item.type === 'bigmapkey'
        ? ` · ${item.body.IsActive ? 'Active' : 'Removed'}`
        : '';
  return (
    <ListItem disablePadding>
      <ListItemButton
        selected={selected}
        onClick={onSelect}
        aria-current={selected ? 'true' : undefined}
        sx={{ borderRadius: 1, alignItems: 'flex-start' }}
      >
        <ListItemText
          primary={
            <Typography
              component="span"
              sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}
            >
              <Typography component="span" sx={{ overflowWrap: 'anywhere', minWidth: 0 }}>
                {resultTitle(item)}
              </Typography>
              {itemVerified(item) ? <VerifiedBadge /> : null}
            </Typography>
          }
          secondary={
            <>
              <Typography component="span" variant="caption" sx={{ display: 'block' }}>
                {kind} · {item.body.Network}
                {extra}
                {item.found_by ? ` · found by ${item.found_by}` : ''}
              </Typography>
              {fragment ? (
                <Typography
                  component="span"
                  variant="body2"
                  sx={{ display: 'block', overflowWrap: 'anywhere' }}
                >
                  <Highlighted fragment={fragment} />
                </Typography>
              ) : null}
            </>
          }
        />
      </ListItemButton>
    </ListItem>
  );
}
