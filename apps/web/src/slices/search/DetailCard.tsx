import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { accountInfoQuery } from '../../api/account-api';
import { contractQuery } from '../../api/contract-api';
import { itemName, itemVerified, type ItemOf, type SearchItem } from '../../api/search-items';
import { useAlias } from '../../features/aliases/useAlias';
import {
  formatCompact,
  formatFileSize,
  formatNumber,
  formatTez,
  formatTime,
} from '../../shared/format/format';
import { TokenImage } from '../../shared/media/TokenImage';
import { TagList } from '../../shared/tags/TagList';
import { VerifiedBadge } from '../../shared/ui/VerifiedBadge';
import { suggestionPath } from '../home/search-box-logic';
import { operationStatus } from './search-logic';

type Field = [string, ReactNode];

/** A field's placeholder: a skeleton while its query loads, a dash when there is nothing to show. */
const placeholder = (pending: boolean, width: number): ReactNode =>
  pending ? <Skeleton width={width} /> : '—';

function Fields({ fields }: { fields: Field[] }) {
  return (
    <Box component="dl" sx={{ m: 0 }}>
      {fields.map(([label, value]) => (
        <Box key={label} sx={{ mb: 1 }}>
          <Typography component="dt" variant="caption" color="text.secondary">
            {label}
          </Typography>
          <Typography component="dd" variant="body2" sx={{ m: 0, overflowWrap: 'anywhere' }}>
            {value ?? '—'}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}

function Card({
  kind,
  title,
  network,
  children,
  path,
  action,
}: {
  kind: string;
  title: string;
  network: string;
  children: ReactNode;
  path: string | null;
  action: string;
}) {
  return (
    <Paper variant="outlined" component="section" aria-label={`${kind} details`} sx={{ p: 2 }}>
      <Typography variant="overline" color="text.secondary">
        {kind} · {network}
      </Typography>
      <Typography variant="h5" component="h2" sx={{ overflowWrap: 'anywhere', mb: 2 }}>
        {title}
      </Typography>
      {children}
      {path ? (
        <Button component={RouterLink} to={path} variant="outlined" size="small" sx={{ mt: 1 }}>
          {action}
        </Button>
      ) : null}
    </Paper>
  );
}

function AccountCard({ item }: { item: ItemOf<'account'> }) {
  const { Network: network, Address: address } = item.body;
  const alias = useAlias(network, address, itemName(item) || null);
  // The account page's own query: one key, one shape (a card's data is the page's when it opens).
  const info = useQuery(accountInfoQuery(network, address));
  const a = info.data;
  return (
    <Card
      kind="Account"
      title={alias ?? address}
      network={network}
      path={suggestionPath(item)}
      action="Open account"
    >
      <Fields
        fields={[
          ['Address', address],
          ['Balance', a ? formatTez(a.balance) : placeholder(info.isPending, 80)],
          ['Operations', a ? formatCompact(a.operations_count) : placeholder(info.isPending, 40)],
          ['Last action', a ? formatTime(a.last_action) : placeholder(info.isPending, 100)],
        ]}
      />
    </Card>
  );
}

function ContractCard({ item }: { item: ItemOf<'account'> }) {
  const { Network: network, Address: address } = item.body;
  const alias = useAlias(network, address, itemName(item) || null);
  // The contract page's own query (full shape, null for an unknown contract): one key, one shape.
  const info = useQuery(contractQuery(network, address));
  const c = info.data;
  return (
    <Card
      kind="Contract"
      title={alias ?? address}
      network={network}
      path={suggestionPath(item)}
      action="Open contract"
    >
      {itemVerified(item) ? (
        <Box sx={{ mb: 1 }}>
          <VerifiedBadge to={`/${network}/${address}/source`} />
        </Box>
      ) : null}
      {c ? (
        <Box sx={{ mb: 1 }}>
          <TagList tags={c.tags ?? []} />
        </Box>
      ) : null}
      <Fields
        fields={[
          ['Address', address],
          ['Deployed by', c ? (c.manager ?? '—') : placeholder(info.isPending, 120)],
          ['Deployed', c ? formatTime(c.timestamp) : placeholder(info.isPending, 100)],
          ['Last action', c ? formatTime(c.last_action ?? '') : placeholder(info.isPending, 100)],
        ]}
      />
    </Card>
  );
}

function BigMapKeyCard({ item }: { item: ItemOf<'bigmapkey'> }) {
  const b = item.body;
  return (
    <Card
      kind="Big map key"
      title={b.KeyHash || item.value}
      network={b.Network}
      path={suggestionPath(item)}
      action="Key history"
    >
      <Chip
        size="small"
        color={b.IsActive ? 'success' : 'default'}
        label={b.IsActive ? 'Active' : 'Removed'}
        sx={{ mb: 1 }}
      />
      <Fields
        fields={[
          ['Big map', String(b.BigMapID)],
          ['Contract', b.Address],
          ['Updated', formatTime(b['@timestamp'])],
        ]}
      />
    </Card>
  );
}

function OperationCard({ item }: { item: ItemOf<'operation'> }) {
  const b = item.body;
  const status = operationStatus(item);
  return (
    <Card
      kind="Operation"
      title={b.Hash || item.value}
      network={b.Network}
      path={suggestionPath(item)}
      action="Open operation"
    >
      <Chip
        size="small"
        label={status}
        color={status === 'applied' ? 'success' : status === 'mempool' ? 'warning' : 'error'}
        sx={{ mb: 1 }}
      />
      <Fields
        fields={[
          ['Timestamp', formatTime(b['@timestamp'])],
          ['Level', b.mempool ? 'mempool' : formatNumber(b.Level)],
          ...(b.Entrypoint ? ([['Entrypoint', b.Entrypoint]] as Field[]) : []),
          ...(b.Destination ? ([['Destination', b.Destination]] as Field[]) : []),
        ]}
      />
    </Card>
  );
}

function TokenCard({ item }: { item: ItemOf<'token'> }) {
  const b = item.body;
  const homepage = b.Homepage?.startsWith('https://') ? b.Homepage : null;
  const formats = b.Formats ?? [];
  return (
    <Card
      kind="Token"
      title={b.Name || `Token ${b.TokenID}`}
      network={b.Network}
      path={suggestionPath(item)}
      action="Token page"
    >
      <Stack direction="row" sx={{ gap: 2, mb: 1, alignItems: 'flex-start' }}>
        <TokenImage uri={b.ThumbnailURI ?? ''} alt={`Thumbnail of ${b.Name || `token ${b.TokenID}`}`} />
        <Box sx={{ minWidth: 0 }}>
          <TagList tags={b.Tags ?? []} raw />
          {b.Description ? (
            <Typography variant="body2" sx={{ mt: 1, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
              {b.Description}
            </Typography>
          ) : null}
        </Box>
      </Stack>
      <Fields
        fields={[
          ['Contract', b.Address],
          ['Token ID', b.TokenID],
          ...(b.Symbol ? ([['Symbol', b.Symbol]] as Field[]) : []),
          ...(b.Minter ? ([['Minter', b.Minter]] as Field[]) : []),
          ...(b.Creators?.length ? ([['Creators', b.Creators.join(', ')]] as Field[]) : []),
          ...(homepage
            ? ([
                [
                  'Homepage',
                  <Link key="h" href={homepage} target="_blank" rel="noopener noreferrer nofollow">
                    {homepage}
                  </Link>,
                ],
              ] as Field[])
            : []),
        ]}
      />
      {formats.length > 0 ? (
        <Box component="ul" aria-label="Files" sx={{ pl: 2, my: 1 }}>
          {formats.map((f, i) => (
            <Typography component="li" variant="body2" key={i}>
              {f.fileName || f.uri} — {f.mimeType || 'unknown type'}
              {f.fileSize !== undefined ? `, ${formatFileSize(f.fileSize)}` : ''}
            </Typography>
          ))}
        </Box>
      ) : null}
    </Card>
  );
}

/** The card for the selected search result. */
export function DetailCard({ item }: { item: SearchItem }) {
  switch (item.type) {
    case 'account':
      return item.body.IsContract ? <ContractCard item={item} /> : <AccountCard item={item} />;
    case 'bigmapkey':
      return <BigMapKeyCard item={item} />;
    case 'operation':
      return <OperationCard item={item} />;
    case 'token':
      return <TokenCard item={item} />;
  }
}
