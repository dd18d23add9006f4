import type { ReactNode } from 'react';
import { Link as RouterLink, Navigate } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Breadcrumbs from '@mui/material/Breadcrumbs';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import { useAlias } from '../../features/aliases/useAlias';
import { CopyButton } from '../../shared/clipboard/CopyButton';
import { useAppConfig } from '../../shared/config/useAppConfig';
import { hasStats } from '../../shared/config/network-order';
import { capitalise, externalExplorerUrl, shortAddress } from '../../shared/entities/explorer-links';
import { formatNumber } from '../../shared/format/format';
import { TagList } from '../../shared/tags/TagList';
import { LinkTabs } from '../../shared/ui/LinkTabs';
import type { ConfigResponse, Contract } from '@michelscope/api-types';
import { contractSourceQuery } from '../../api/verify-api';
import { BookmarkButton } from './BookmarkButton';
import { SecurityHeadline } from './security/SecurityHeadline';
import { VerifiedBadge } from '../../shared/ui/VerifiedBadge';
import { tabUnreachable, visibleTabs, type TabFacts, type TabId } from './tab-visibility';
import { tokenServiceQuery } from './token-service';
import { useContractPage, type ContractPageData } from './useContractPage';

interface Props {
  tab: TabId;
  children: (data: ContractPageData) => ReactNode;
}

/** The external explorer page of an address: the network's configured explorer, else the known ones. */
export function explorerLink(
  config: Pick<ConfigResponse, 'network_info'>,
  network: string,
  address: string,
): string | null {
  const configured = config.network_info.find((n) => n.name === network)?.explorer_url;
  if (configured && /^https:\/\/[^\s"'<>]+$/.test(configured) && /^[1-9A-HJ-NP-Za-km-z]+$/.test(address)) {
    return `${configured.replace(/\/+$/, '')}/${address}`;
  }
  return externalExplorerUrl(network, address);
}

/**
 * The frame of every account / contract / rollup tab (workspace spec §2 "Contract page frame"):
 * breadcrumbs, title, tags, bookmark / copy / external explorer, and the tabs by route name.
 * A contract the server does not know (204) goes to /not_found.
 */
export function ContractFrame({ tab, children }: Props) {
  const config = useAppConfig();
  const data = useContractPage();
  const { network, address, account, contract } = data;
  const alias = useAlias(network, address, null);
  const tokenService = useQuery({ ...tokenServiceQuery(), enabled: data.isContract });
  // the verified source (issue 38), asked for once the contract has answered (404: none)
  const source = useQuery({
    ...contractSourceQuery(network, address),
    enabled: data.isContract && contract !== undefined && contract !== null,
  });

  if (data.isContract && contract === null) return <Navigate to="/not_found" replace />;

  const facts: TabFacts = {
    accountType: account?.account_type ?? (data.isContract ? 'contract' : null),
    operationsCount: account?.operations_count ?? 0,
    ticketUpdatesCount: account ? account.ticket_updates_count : null,
    eventsCount: account ? account.events_count : null,
    tokenService: !data.isContract
      ? false
      : tokenService.isError
        ? false
        : tokenService.isSuccess
          ? tokenService.data === true
          : null,
    metadataLoaded: data.metadata === undefined ? null : data.metadata !== null,
    viewsCount:
      data.viewsSettled && data.metadata !== undefined ? data.views.length + data.offChainViews : null,
    statsService: hasStats(config, network),
    verifiedSource: !data.isContract
      ? false
      : source.isError
        ? false
        : source.isSuccess
          ? source.data !== null
          : null,
  };
  // a tab is reachable exactly when it is shown: a URL of a tab this account does not have opens Operations
  if (tabUnreachable(facts, tab)) return <Navigate to={`/${network}/${address}/operations`} replace />;
  const tabs = visibleTabs(facts, tab);
  const external = explorerLink(config, network, address);
  const title = alias ?? address;

  return (
    <Box sx={{ py: 2 }}>
      <Breadcrumbs aria-label="Breadcrumbs" sx={{ mb: 1 }}>
        <Link component={RouterLink} to="/" underline="hover" color="inherit">
          Home
        </Link>
        <Link component={RouterLink} to={`/${network}/recently_called`} underline="hover" color="inherit">
          {capitalise(network)}
        </Link>
        <Typography
          color="text.primary"
          aria-current="page"
          sx={{ fontFamily: alias ? undefined : 'monospace' }}
        >
          {alias ?? shortAddress(address)}
        </Typography>
      </Breadcrumbs>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'center' }, mb: 1 }}>
        <Typography
          variant="h5"
          component="h1"
          sx={{
            fontFamily: alias ? undefined : 'monospace',
            overflowWrap: 'anywhere',
            flexGrow: 1,
            minWidth: 0,
          }}
        >
          {title}
        </Typography>
        <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
          {facts.verifiedSource ? <VerifiedBadge to={`/${network}/${address}/source`} /> : null}
          <BookmarkButton network={network} address={address} defaultName={alias ?? address} />
          <CopyButton text={address} label="Copy address" />
          {external ? (
            <Tooltip title="Open in an external explorer">
              <IconButton
                component="a"
                href={external}
                target="_blank"
                rel="noopener noreferrer"
                size="small"
                aria-label="Open in an external explorer"
              >
                <OpenInNewIcon fontSize="inherit" />
              </IconButton>
            </Tooltip>
          ) : null}
        </Stack>
      </Stack>
      {alias ? (
        <Typography
          variant="body2"
          color="text.secondary"
          sx={{ fontFamily: 'monospace', overflowWrap: 'anywhere' }}
        >
          {address}
        </Typography>
      ) : null}
      <Box sx={{ my: 1 }}>{contract ? <TagList tags={contract.tags ?? []} /> : null}</Box>
      {data.isContract ? (
        <SecurityHeadline
          network={network}
          address={address}
          // asked for once the contract has answered: it never delays the page's own data
          ready={contract !== undefined && contract !== null}
          onSecurityTab={tab === 'security'}
        />
      ) : null}
      {contract?.partial && contract.indexed_from !== undefined ? (
        <PartialHistoryNotice level={contract.indexed_from} history={contract.history} />
      ) : null}
      {account === undefined ? (
        <Skeleton variant="rounded" height={48} aria-hidden="true" />
      ) : (
        <LinkTabs
          tabs={tabs.map((t) => ({
            id: t.id,
            label: t.label,
            to: `/${network}/${address}/${t.path}`,
            controls: 'account-tabpanel',
          }))}
          selected={tab}
          label="Account tabs"
          idPrefix="account-tab-"
          sx={{ borderBottom: 1, borderColor: 'divider' }}
        />
      )}
      <Box
        sx={{ pt: 2 }}
        id="account-tabpanel"
        role="tabpanel"
        aria-labelledby={account === undefined ? undefined : `account-tab-${tab}`}
      >
        {children(data)}
      </Box>
    </Box>
  );
}

/**
 * A contract the index holds from a level on only (read from the node when first asked for, issue 32): what the
 * page shows is current, its operations before that level are not there. `subject="holders"`: the same note
 * where a token's holders are listed (read from its ledger's keys, those written before that level missing).
 */
export function PartialHistoryNotice({
  level,
  history,
  subject = 'contract',
}: {
  level: number;
  history?: Contract['history'] | undefined;
  subject?: 'contract' | 'holders';
}) {
  const total = history?.total ?? null;
  return (
    <Alert severity="info" role="status" sx={{ mb: 1 }}>
      History before level {formatNumber(level)} is not indexed yet:{' '}
      {subject === 'holders' ? (
        <>
          the holders are read from the keys of the contract’s ledger written from level {formatNumber(level)}{' '}
          on, so holders whose balance has not changed since are missing until its history is read.
        </>
      ) : (
        <>
          this contract was read from the node when it was first asked for. Its code, storage, entrypoints and
          views are current; its operations and storage history start at level {formatNumber(level)}.
        </>
      )}
      {history ? (
        <Box sx={{ mt: 1 }}>
          <Typography variant="body2" id="history-progress-label">
            {total === null
              ? `History: ${formatNumber(history.done)} levels read`
              : `History: ${formatNumber(history.done)} of ${formatNumber(total)} levels`}
            {history.state === 'failed'
              ? ` — paused${history.message ? ` (${history.message})` : ''}, retried shortly`
              : history.state === 'pending'
                ? ' — waiting for its turn'
                : ''}
          </Typography>
          {total !== null && total > 0 ? (
            <LinearProgress
              variant="determinate"
              value={Math.min(100, (100 * history.done) / total)}
              aria-labelledby="history-progress-label"
              aria-valuetext={`${formatNumber(history.done)} of ${formatNumber(total)} levels`}
              sx={{ mt: 0.5, maxWidth: 360 }}
            />
          ) : null}
        </Box>
      ) : null}
    </Alert>
  );
}
