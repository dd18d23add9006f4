/**
 * The Source tab (issue 38): the contract's verified source. Shown only when GET …/source answers (the
 * frame hides the tab on a 404). Each file's content is text (never HTML), with line numbers and Archetype's
 * keywords, strings, numbers and comments coloured; each file has its download link.
 */
import { memo, useMemo } from 'react';
import { Link as RouterLink } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { contractSourceQuery, sourceFileUrl } from '../../../api/verify-api';
import type { ContractSource, SourceFile } from '@michelscope/api-types';
import { formatFileSize } from '../../../shared/format/format';
import { ContractFrame } from '../ContractFrame';
import type { ContractPageData } from '../useContractPage';
import { tokenizeLines, verifiedSentence, type TokenKind } from './source-text';
import { VerifyButton } from './VerifyButton';

const TOKEN_COLOUR: Record<TokenKind, string | undefined> = {
  keyword: 'primary.main',
  string: 'success.main',
  number: 'warning.main',
  comment: 'text.secondary',
  plain: undefined,
};

const fileAnchor = (i: number) => `source-file-${i}`;

/** A source file as numbered lines of text pieces. */
export const SourceCode = memo(function SourceCode({ file }: { file: SourceFile }) {
  const lines = useMemo(() => tokenizeLines(file.content), [file.content]);
  const width = String(lines.length).length;
  return (
    <Box
      component="pre"
      tabIndex={0}
      aria-label={`Source of ${file.name}`}
      sx={{
        m: 0,
        p: 1,
        overflow: 'auto',
        maxHeight: '75vh',
        fontFamily: 'monospace',
        fontSize: 13,
        lineHeight: '20px',
      }}
    >
      {lines.map((tokens, i) => (
        <Box component="span" key={i} sx={{ display: 'block', whiteSpace: 'pre' }}>
          <Box
            component="span"
            aria-hidden="true"
            sx={{
              display: 'inline-block',
              minWidth: `${width + 1}ch`,
              pr: 1,
              color: 'text.secondary',
              userSelect: 'none',
              textAlign: 'right',
            }}
          >
            {i + 1}
          </Box>
          {tokens.map((t, j) =>
            t.kind === 'plain' ? (
              <span key={j}>{t.text}</span>
            ) : (
              <Box
                component="span"
                key={j}
                sx={{ color: TOKEN_COLOUR[t.kind], fontWeight: t.kind === 'keyword' ? 600 : undefined }}
              >
                {t.text}
              </Box>
            ),
          )}
          {'\n'}
        </Box>
      ))}
    </Box>
  );
});

function SourceView({ at, source }: { at: { network: string; address: string }; source: ContractSource }) {
  const v = source.verification;
  const many = source.files.length > 1;
  return (
    <Stack sx={{ gap: 2 }}>
      <Alert severity="success" icon={false} sx={{ overflowWrap: 'anywhere' }} data-testid="source-verified">
        <Typography variant="body2">{verifiedSentence(v)}</Typography>
        {source.inherited ? (
          <Typography variant="body2" sx={{ mt: 0.5 }}>
            Verified through a contract with the same code:{' '}
            <Link
              component={RouterLink}
              to={`/${v.network}/${v.address}/source`}
              sx={{ fontFamily: 'monospace' }}
            >
              {v.address}
            </Link>
            {v.network !== at.network ? ` (${v.network})` : ''}
          </Typography>
        ) : null}
        <Box sx={{ mt: 0.5 }}>
          <VerifyButton network={at.network} address={at.address} variant="link" />
        </Box>
      </Alert>
      {many ? (
        <Box component="nav" aria-label="Source files">
          <Typography variant="subtitle2" component="h2">
            Files ({source.files.length})
          </Typography>
          <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
            {source.files.map((f, i) => (
              <li key={f.name}>
                <Link href={`#${fileAnchor(i)}`} sx={{ fontFamily: 'monospace', overflowWrap: 'anywhere' }}>
                  {f.name}
                </Link>
                {f.name === v.main ? ' (main)' : ''}
              </li>
            ))}
          </Box>
        </Box>
      ) : null}
      {source.files.map((f, i) => (
        <Paper
          key={f.name}
          variant="outlined"
          component="section"
          id={fileAnchor(i)}
          aria-labelledby={`${fileAnchor(i)}-name`}
          sx={{ overflow: 'hidden' }}
        >
          <Stack
            direction="row"
            sx={{
              gap: 1,
              alignItems: 'center',
              flexWrap: 'wrap',
              px: 1.5,
              py: 0.75,
              bgcolor: 'action.hover',
            }}
          >
            <Typography
              id={`${fileAnchor(i)}-name`}
              component="h2"
              sx={{ fontFamily: 'monospace', fontSize: 14, overflowWrap: 'anywhere' }}
            >
              {f.name}
            </Typography>
            <Typography variant="caption" color="text.secondary">
              {formatFileSize(new Blob([f.content]).size)}
            </Typography>
            <Link
              href={sourceFileUrl(at.network, at.address, f.name)}
              download={f.name.split('/').pop()}
              aria-label={`Download ${f.name}`}
              variant="body2"
              sx={{ ml: 'auto' }}
            >
              Download
            </Link>
          </Stack>
          <SourceCode file={f} />
        </Paper>
      ))}
    </Stack>
  );
}

export function SourceTab({ data }: { data: ContractPageData }) {
  const { network, address } = data;
  const source = useQuery(contractSourceQuery(network, address));
  if (source.isPending) return <LinearProgress aria-label="Loading the source" />;
  if (source.isError) return <Alert severity="error">{source.error.message}</Alert>;
  if (source.data === null)
    return (
      <Stack sx={{ gap: 1, alignItems: 'flex-start' }}>
        <Typography>This contract has no verified source.</Typography>
        <VerifyButton network={network} address={address} />
      </Stack>
    );
  return <SourceView at={{ network, address }} source={source.data} />;
}

/** /{network}/{address}/source */
export function SourcePage() {
  return <ContractFrame tab="source">{(data) => <SourceTab data={data} />}</ContractFrame>;
}
