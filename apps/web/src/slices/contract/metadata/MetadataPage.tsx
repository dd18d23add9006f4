import { useState, type ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Grid from '@mui/material/Grid';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { MetadataEntry } from '../../../api/contract-metadata-api';
import { useCopy } from '../../../shared/clipboard/useCopy';
import { useAppConfig } from '../../../shared/config/useAppConfig';
import { valueLinks } from '../../../shared/entities/value-links';
import { prettyJson } from '../../../shared/json/json-steps';
import { RawJsonDialog } from '../../../shared/json/RawJsonDialog';
import { EmptyState } from '../../../shared/ui/EmptyState';
import { downloadText } from '../../../shared/download/save-file';
import { ContractFrame } from '../ContractFrame';
import type { ContractPageData } from '../useContractPage';
import { metadataSummary, resolvingErrorText } from './metadata-doc';

function Field({ term, children }: { term: string; children: ReactNode }) {
  return (
    <>
      <Typography component="dt" variant="caption" color="text.secondary">
        {term}
      </Typography>
      <Typography component="dd" sx={{ m: 0, mb: 1, wordBreak: 'break-word' }}>
        {children}
      </Typography>
    </>
  );
}

/** The link the metadata was resolved from, with its View Storage / View IPFS link when it has one. */
function SourceLink({ link, network }: { link: string; network: string }) {
  const config = useAppConfig();
  const links = valueLinks(link, network, config.ipfs_gateway);
  return (
    <>
      <Box component="span" sx={{ fontFamily: 'monospace', overflowWrap: 'anywhere' }}>
        {link}
      </Box>
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
    </>
  );
}

/** The metadata tab (workspace spec §2): TZIP-16 fields and views, JSON, download, resolving errors. */
export function MetadataTab({
  network,
  address,
  metadata,
}: {
  network: string;
  address: string;
  metadata: MetadataEntry | null | undefined;
}) {
  const [raw, setRaw] = useState(false);
  const copy = useCopy();
  if (metadata === undefined) return <LinearProgress aria-label="Loading metadata" />;
  if (metadata === null) return <EmptyState title="Nothing found" text="This contract has no metadata." />;
  const summary = metadataSummary(metadata.metadata);
  const json = prettyJson(metadata.metadata ?? {});
  return (
    <Stack spacing={2}>
      {metadata.status === 2 ? (
        <Alert severity="error">
          <AlertTitle>{resolvingErrorText('Resolving metadata error', metadata.retry_count)}</AlertTitle>
          {metadata.error}
        </Alert>
      ) : metadata.status === 1 ? (
        <Alert severity="info">The metadata is being resolved, trying to get your file.</Alert>
      ) : null}
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, md: 5 }}>
          <Paper variant="outlined" component="section" aria-label="Metadata" sx={{ p: 2 }}>
            <Box component="dl" sx={{ m: 0 }}>
              {summary.name ? <Field term="Name">{summary.name}</Field> : null}
              {summary.description ? <Field term="Description">{summary.description}</Field> : null}
              {summary.version ? <Field term="Version">{summary.version}</Field> : null}
              {summary.license ? <Field term="License">{summary.license}</Field> : null}
              {summary.authors.length ? <Field term="Authors">{summary.authors.join(', ')}</Field> : null}
              {summary.interfaces.length ? (
                <Field term="Interfaces">{summary.interfaces.join(', ')}</Field>
              ) : null}
              {summary.homepage ? (
                <Field term="Homepage">
                  <Link href={summary.homepage} target="_blank" rel="noopener noreferrer">
                    {summary.homepage}
                  </Link>
                </Field>
              ) : null}
              {metadata.link ? (
                <Field term="Source">
                  <SourceLink link={metadata.link} network={network} />
                </Field>
              ) : null}
            </Box>
          </Paper>
          {summary.views.length ? (
            <Paper variant="outlined" sx={{ mt: 2 }}>
              <Table size="small" aria-label="Off-chain views">
                <TableHead>
                  <TableRow>
                    <TableCell>View</TableCell>
                    <TableCell>Implementation</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {summary.views.map((v, i) => (
                    <TableRow key={`${v.name}-${i}`}>
                      <TableCell>
                        <Typography sx={{ fontFamily: 'monospace' }}>{v.name}</Typography>
                        {v.description ? (
                          <Typography variant="caption" color="text.secondary">
                            {v.description}
                          </Typography>
                        ) : null}
                      </TableCell>
                      <TableCell>{v.implementations.join(', ') || '—'}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </Paper>
          ) : null}
        </Grid>
        <Grid size={{ xs: 12, md: 7 }}>
          <Paper variant="outlined" sx={{ p: 1 }}>
            <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end', mb: 1 }}>
              <Button size="small" onClick={() => void copy(json)}>
                Copy
              </Button>
              <Button size="small" onClick={() => setRaw(true)}>
                Raw JSON
              </Button>
              <Button
                size="small"
                onClick={() => downloadText(`${address}_metadata.json`, json, 'application/json')}
              >
                Download
              </Button>
            </Stack>
            <Box
              component="pre"
              aria-label="Metadata JSON"
              tabIndex={0}
              sx={{
                m: 0,
                p: 1,
                maxHeight: 600,
                overflow: 'auto',
                fontSize: 13,
                whiteSpace: 'pre-wrap',
                overflowWrap: 'anywhere',
              }}
            >
              {json}
            </Box>
          </Paper>
        </Grid>
      </Grid>
      <RawJsonDialog open={raw} onClose={() => setRaw(false)} title="Metadata: raw JSON" value={metadata} />
    </Stack>
  );
}

/** /{network}/{address}/metadata */
export function MetadataPage() {
  return (
    <ContractFrame tab="metadata">
      {(data: ContractPageData) => (
        <MetadataTab network={data.network} address={data.address} metadata={data.metadata} />
      )}
    </ContractFrame>
  );
}
