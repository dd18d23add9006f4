import { memo, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import Accordion from '@mui/material/Accordion';
import AccordionDetails from '@mui/material/AccordionDetails';
import AccordionSummary from '@mui/material/AccordionSummary';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Grid from '@mui/material/Grid';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import { TOKENS_PAGE_SIZE, tokensQuery, type TokenMetadataEntry } from '../../../api/contract-metadata-api';
import { EXPORTS } from '../../../api/export-requests';
import { useAppConfig } from '../../../shared/config/useAppConfig';
import { ExportButton } from '../../../shared/export/ExportButton';
import { valueLinks } from '../../../shared/entities/value-links';
import { prettyJson } from '../../../shared/json/json-steps';
import { TokenImage } from '../../../shared/media/TokenImage';
import { EmptyState } from '../../../shared/ui/EmptyState';
import { ContractFrame, PartialHistoryNotice } from '../ContractFrame';
import { resolvingErrorText } from '../metadata/metadata-doc';
import {
  TOKEN_SEARCH_DEBOUNCE_MS,
  TOKEN_SEARCH_MAX,
  normaliseTokenSearch,
  tokenState,
  tokenThumbnail,
  tokenTitle,
} from './token-view';

/** Memoised: a key typed in the search box re-renders the tab, not every loaded token. */
const TokenPanel = memo(function TokenPanel({
  token,
  network,
  partialFrom,
}: {
  token: TokenMetadataEntry;
  network: string;
  partialFrom?: number | undefined;
}) {
  const config = useAppConfig();
  const title = tokenTitle(token.metadata, token.token_id);
  const thumbnail = tokenThumbnail(token.metadata);
  const state = tokenState(token.status);
  const links = token.link ? valueLinks(token.link, network, config.ipfs_gateway) : [];
  return (
    <Accordion disableGutters variant="outlined" slotProps={{ transition: { unmountOnExit: true } }}>
      <AccordionSummary expandIcon={<ExpandMoreIcon />}>
        <Typography sx={{ flexGrow: 1 }}>{title}</Typography>
        <Typography color="text.secondary" sx={{ mr: 1, fontFamily: 'monospace' }}>
          ID {token.token_id}
        </Typography>
      </AccordionSummary>
      <AccordionDetails>
        <Grid container spacing={2}>
          <Grid size={{ xs: 12, md: 9 }}>
            {token.link ? (
              <Typography variant="body2" sx={{ mb: 1, overflowWrap: 'anywhere' }}>
                Metadata: <span style={{ fontFamily: 'monospace' }}>{token.link}</span>
                {links.map((l) => (
                  <Link
                    key={l.label}
                    href={l.href}
                    sx={{ ml: 1 }}
                    {...(l.external ? { target: '_blank', rel: 'noopener noreferrer' } : {})}
                  >
                    {l.label}
                  </Link>
                ))}
              </Typography>
            ) : null}
            {state === 'error' ? (
              <Alert severity="error" sx={{ mb: 1 }}>
                {resolvingErrorText('Resolving token metadata error', token.retry_count)}
                {token.error ? `: ${token.error}` : ''}
              </Alert>
            ) : state === 'pending' ? (
              <Alert severity="info" sx={{ mb: 1 }}>
                Resolving token metadata, trying to get your file.
              </Alert>
            ) : null}
            <Box
              component="pre"
              aria-label={`Metadata of token ${token.token_id}`}
              sx={{
                m: 0,
                p: 1,
                maxHeight: 400,
                overflow: 'auto',
                fontSize: 13,
                whiteSpace: 'pre-wrap',
                overflowWrap: 'anywhere',
                bgcolor: 'action.hover',
              }}
            >
              {prettyJson(token.metadata ?? {})}
            </Box>
          </Grid>
          <Grid size={{ xs: 12, md: 3 }}>
            {thumbnail ? <TokenImage uri={thumbnail} alt={title} size={160} /> : null}
          </Grid>
          <Grid size={12}>
            {partialFrom !== undefined ? (
              <PartialHistoryNotice level={partialFrom} subject="holders" />
            ) : null}
            <ExportButton
              what={`holders of token ${token.token_id}`}
              request={(format) =>
                EXPORTS.tokenHolders({ network, address: token.contract, tokenId: token.token_id }, format)
              }
            />
          </Grid>
        </Grid>
      </AccordionDetails>
    </Accordion>
  );
});

function TokenPage({
  network,
  address,
  page,
  search,
  after,
  partialFrom,
  onFull,
}: {
  network: string;
  address: string;
  page: number;
  search: string;
  /** The last token id of the page before (keyset), when known. */
  after?: string | undefined;
  partialFrom?: number | undefined;
  /** Load more, after this page's last token id. */
  onFull?: (lastTokenId: string) => void;
}) {
  const query = useQuery(tokensQuery(network, address, page * TOKENS_PAGE_SIZE, search, after));
  if (query.isPending) return <LinearProgress aria-label="Loading tokens" />;
  if (query.isError) return <Alert severity="error">{query.error.message}</Alert>;
  if (page === 0 && query.data.length === 0) {
    return (
      <EmptyState title="Nothing found" text="Empty set is also a result, otherwise try a broader query" />
    );
  }
  return (
    <>
      {query.data.map((t) => (
        <TokenPanel
          key={`${t.token_id}-${t.contract}`}
          token={t}
          network={network}
          partialFrom={partialFrom}
        />
      ))}
      {onFull && query.data.length === TOKENS_PAGE_SIZE && search === '' ? (
        <Button onClick={() => onFull(String(query.data.at(-1)!.token_id))} sx={{ alignSelf: 'center' }}>
          Load more
        </Button>
      ) : null}
    </>
  );
}

/**
 * The tokens tab (workspace spec §2): search (mirrored in ?search=), expandable token panels, 20 per page.
 * `partialFrom`: the contract's history is indexed from that level on only (its `indexed_from` while partial,
 * issue 32), said where the holders are.
 */
export function TokensTab({
  network,
  address,
  partialFrom,
}: {
  network: string;
  address: string;
  partialFrom?: number | undefined;
}) {
  const [params, setParams] = useSearchParams();
  const search = normaliseTokenSearch(params.get('search') ?? '');
  const [text, setText] = useState(search);
  // the pages shown, each read after the last token id of the one before (keyset; page 0 from the start)
  const [pages, setPages] = useState<{ search: string; afters: Array<string | undefined> }>({
    search,
    afters: [undefined],
  });
  const afters = pages.search === search ? pages.afters : [undefined];
  const count = afters.length;

  useEffect(() => {
    const next = normaliseTokenSearch(text);
    if (next === search) return;
    const timer = setTimeout(() => {
      const p = new URLSearchParams(params);
      if (next === '') p.delete('search');
      else p.set('search', next);
      setParams(p, { replace: true });
    }, TOKEN_SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, search, params, setParams]);

  return (
    <Stack spacing={1}>
      <Stack direction="row" sx={{ gap: 1, alignItems: 'flex-start', flexWrap: 'wrap' }}>
        <TextField
          size="small"
          value={text}
          onChange={(e) => setText(e.target.value.slice(0, TOKEN_SEARCH_MAX))}
          placeholder="Start typing token name"
          slotProps={{ htmlInput: { 'aria-label': 'Token search', maxLength: TOKEN_SEARCH_MAX } }}
          sx={{ maxWidth: 480, flex: '1 1 240px' }}
        />
        <ExportButton
          what="tokens"
          request={(format) => EXPORTS.tokens({ network, address, search }, format)}
        />
      </Stack>
      {Array.from({ length: count }, (_, page) => (
        <TokenPage
          key={`${search}-${page}`}
          network={network}
          address={address}
          page={page}
          search={search}
          after={afters[page]}
          partialFrom={partialFrom}
          {...(page === count - 1
            ? { onFull: (last: string) => setPages({ search, afters: [...afters, last] }) }
            : {})}
        />
      ))}
    </Stack>
  );
}

/** /{network}/{address}/tokens */
export function TokensPage() {
  return (
    <ContractFrame tab="tokens">
      {(data) => (
        <TokensTab
          network={data.network}
          address={data.address}
          partialFrom={data.contract?.partial ? data.contract.indexed_from : undefined}
        />
      )}
    </ContractFrame>
  );
}
