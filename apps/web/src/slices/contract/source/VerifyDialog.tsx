/**
 * The verify form (issue 38): compiler, version, the sources (files, or pasted text with its file name), the
 * main file; POST …/verify. While the server compiles: 'Compiling…'. Verified: the Source tab and the badge
 * appear (the source is read again). Failed: the server's sentence, the first differing instruction on both
 * sides (the deployed one linked to its Code tab line) and the whole diff of the deployed and compiled
 * Michelson. An error answer (400, 413, 422, 429) shows its message as the server wrote it.
 */
import { useId, useMemo, useState, type FormEvent } from 'react';
import { Link as RouterLink } from 'react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import InputLabel from '@mui/material/InputLabel';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import MenuItem from '@mui/material/MenuItem';
import Select from '@mui/material/Select';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import { codeQuery } from '../../../api/contract-api';
import { contractSourceQuery, submitVerification, verifyCompilersQuery } from '../../../api/verify-api';
import type { SourceFile, Verification, VerifyRequest } from '@michelscope/api-types';
import { formatFileSize } from '../../../shared/format/format';
import { BlockView } from '../code/CodeCompare';
import { scriptDiffBlock } from './source-text';

interface At {
  network: string;
  address: string;
}

const mono = { fontFamily: 'monospace', fontSize: 13, overflowWrap: 'anywhere' } as const;

/** The first differing instruction and the whole diff of a failed verification. */
export function FailedResult({ at, verification }: { at: At; verification: Verification }) {
  const d = verification.difference;
  const deployedCode = useQuery({
    ...codeQuery(at.network, at.address, null),
    enabled: !!verification.compiled,
  });
  const block = useMemo(
    () =>
      deployedCode.data !== undefined && verification.compiled !== undefined
        ? scriptDiffBlock(deployedCode.data, verification.compiled)
        : null,
    [deployedCode.data, verification.compiled],
  );
  const line = d?.deployed_line;
  return (
    <Stack sx={{ gap: 1.5 }} data-testid="verify-failed">
      <Alert severity="error" role="alert">
        <Typography sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
          {d?.message ?? 'The compiled Michelson differs from the deployed code.'}
        </Typography>
      </Alert>
      {d ? (
        <Box
          component="dl"
          sx={{ m: 0, display: 'grid', gridTemplateColumns: 'auto minmax(0, 1fr)', gap: 0.5 }}
        >
          <Typography component="dt" variant="body2" color="text.secondary">
            Section
          </Typography>
          <Typography component="dd" variant="body2" sx={{ m: 0 }}>
            {d.section}
            {d.block ? ` · ${d.block}` : ''}
          </Typography>
          {d.deployed !== undefined ? (
            <>
              <Typography component="dt" variant="body2" color="text.secondary">
                Deployed
              </Typography>
              <Typography component="dd" variant="body2" sx={{ m: 0 }}>
                {typeof line === 'number' && line > 0 ? (
                  <Link component={RouterLink} to={`/${at.network}/${at.address}/code?line=${line}`}>
                    line {line}
                  </Link>
                ) : (
                  'line not known'
                )}
                {': '}
                <Box component="code" sx={mono}>
                  {d.deployed}
                </Box>
              </Typography>
            </>
          ) : null}
          {d.compiled !== undefined ? (
            <>
              <Typography component="dt" variant="body2" color="text.secondary">
                Compiled
              </Typography>
              <Typography component="dd" variant="body2" sx={{ m: 0 }}>
                {typeof d.compiled_line === 'number' ? `line ${d.compiled_line}` : 'line not known'}
                {': '}
                <Box component="code" sx={mono}>
                  {d.compiled}
                </Box>
              </Typography>
            </>
          ) : null}
        </Box>
      ) : null}
      {verification.compiled !== undefined ? (
        <Box component="section" aria-label="Deployed and compiled code">
          <Typography variant="subtitle2" component="h3" sx={{ mb: 0.5 }}>
            Deployed (left) and compiled (right) Michelson
          </Typography>
          {block ? (
            <BlockView block={block} view="split" />
          ) : deployedCode.isError ? (
            <Alert severity="warning">{deployedCode.error.message}</Alert>
          ) : (
            <LinearProgress aria-label="Loading the deployed code" />
          )}
        </Box>
      ) : null}
    </Stack>
  );
}

export default function VerifyDialog({
  network,
  address,
  onClose,
}: {
  network: string;
  address: string;
  onClose: () => void;
}) {
  const id = useId();
  const fullScreen = useMediaQuery((t: Theme) => t.breakpoints.down('sm'), { noSsr: true });
  const client = useQueryClient();
  const compilers = useQuery(verifyCompilersQuery());
  const available = (compilers.data ?? []).filter((c) => c.available);
  const [compilerId, setCompilerId] = useState<string | null>(null);
  const compiler =
    (compilers.data ?? []).find((c) => c.id === compilerId && c.available) ?? available[0] ?? null;
  const [versionPick, setVersion] = useState<string | null>(null);
  const version =
    versionPick !== null && compiler?.versions.includes(versionPick)
      ? versionPick
      : (compiler?.versions[0] ?? '');
  const [mode, setMode] = useState<'files' | 'paste'>('files');
  const [files, setFiles] = useState<SourceFile[]>([]);
  const [pasteName, setPasteName] = useState('');
  const [pasteContent, setPasteContent] = useState('');
  const [mainPick, setMain] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const ext = compiler?.extensions[0] ?? '';
  const pasteFile = (pasteName.trim() || `contract${ext}`).trim();
  const sources: SourceFile[] =
    mode === 'files' ? files : pasteContent === '' ? [] : [{ name: pasteFile, content: pasteContent }];
  const main =
    mainPick !== null && sources.some((f) => f.name === mainPick) ? mainPick : (sources[0]?.name ?? '');

  const verify = useMutation({
    mutationFn: (body: VerifyRequest) => submitVerification(network, address, body),
    onSuccess: (v) => {
      if (v.status === 'verified')
        void client.invalidateQueries({ queryKey: contractSourceQuery(network, address).queryKey });
    },
  });

  const readFiles = async (list: FileList | null) => {
    if (!list) return;
    const read = await Promise.all([...list].map(async (f) => ({ name: f.name, content: await f.text() })));
    setFiles((old) => [...old.filter((o) => !read.some((r) => r.name === o.name)), ...read]);
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!compiler) return setFormError('Choose a compiler.');
    if (sources.length === 0)
      return setFormError(mode === 'files' ? 'Choose the source files.' : 'Paste the source.');
    setFormError(null);
    verify.mutate({ compiler: compiler.id, version, files: sources, main });
  };

  const result = verify.data;
  return (
    <Dialog
      open
      onClose={onClose}
      fullWidth
      maxWidth="md"
      fullScreen={fullScreen}
      aria-labelledby={`${id}-title`}
    >
      <DialogTitle id={`${id}-title`}>Verify source</DialogTitle>
      <DialogContent dividers>
        <Stack
          component="form"
          id={`${id}-form`}
          onSubmit={submit}
          noValidate
          sx={{ gap: 2 }}
          aria-label="Verify source"
        >
          <Typography variant="body2" color="text.secondary">
            The server compiles the sources and compares the Michelson with this contract’s deployed code.
          </Typography>
          {compilers.isError ? <Alert severity="error">{compilers.error.message}</Alert> : null}
          <Stack direction={{ xs: 'column', sm: 'row' }} sx={{ gap: 2 }}>
            <FormControl size="small" sx={{ minWidth: 200 }} disabled={!compilers.data}>
              <InputLabel id={`${id}-compiler`}>Compiler</InputLabel>
              <Select
                labelId={`${id}-compiler`}
                label="Compiler"
                value={compiler?.id ?? ''}
                onChange={(e) => setCompilerId(e.target.value)}
              >
                {(compilers.data ?? []).map((c) => (
                  <MenuItem key={c.id} value={c.id} disabled={!c.available}>
                    <Box>
                      {c.name}
                      {!c.available && c.reason ? (
                        <Typography
                          variant="caption"
                          color="text.secondary"
                          sx={{ display: 'block', whiteSpace: 'normal' }}
                        >
                          {c.reason}
                        </Typography>
                      ) : null}
                    </Box>
                  </MenuItem>
                ))}
              </Select>
            </FormControl>
            <FormControl size="small" sx={{ minWidth: 160 }} disabled={!compiler}>
              <InputLabel id={`${id}-version`}>Version</InputLabel>
              <Select
                labelId={`${id}-version`}
                label="Version"
                value={version}
                onChange={(e) => setVersion(e.target.value)}
              >
                {(compiler?.versions ?? []).map((v) => (
                  <MenuItem key={v} value={v}>
                    {v}
                  </MenuItem>
                ))}
              </Select>
            </FormControl>
          </Stack>
          {(compilers.data ?? []).some((c) => !c.available) ? (
            <Box component="ul" aria-label="Compilers not available" sx={{ m: 0, pl: 2.5 }}>
              {(compilers.data ?? [])
                .filter((c) => !c.available)
                .map((c) => (
                  <Typography component="li" variant="caption" color="text.secondary" key={c.id}>
                    {c.name} is not available{c.reason ? `: ${c.reason}` : '.'}
                  </Typography>
                ))}
            </Box>
          ) : null}
          <ToggleButtonGroup
            size="small"
            exclusive
            value={mode}
            onChange={(_, v: 'files' | 'paste' | null) => v && setMode(v)}
            aria-label="Sources"
          >
            <ToggleButton value="files">Upload files</ToggleButton>
            <ToggleButton value="paste">Paste source</ToggleButton>
          </ToggleButtonGroup>
          {mode === 'files' ? (
            <Box>
              <Typography
                component="label"
                htmlFor={`${id}-files`}
                variant="body2"
                sx={{ display: 'block', mb: 0.5 }}
              >
                Source files
              </Typography>
              <input
                id={`${id}-files`}
                type="file"
                multiple
                accept={compiler?.extensions.join(',') || undefined}
                onChange={(e) => void readFiles(e.target.files)}
                style={{ maxWidth: '100%' }}
              />
              {files.length > 0 ? (
                <Box component="ul" aria-label="Chosen files" sx={{ m: 0, mt: 1, p: 0, listStyle: 'none' }}>
                  {files.map((f) => (
                    <Stack component="li" direction="row" key={f.name} sx={{ alignItems: 'center', gap: 1 }}>
                      <Box component="span" sx={mono}>
                        {f.name}
                      </Box>
                      <Typography variant="caption" color="text.secondary">
                        {formatFileSize(new Blob([f.content]).size)}
                      </Typography>
                      <Button
                        size="small"
                        onClick={() => setFiles((l) => l.filter((x) => x.name !== f.name))}
                        aria-label={`Remove ${f.name}`}
                      >
                        Remove
                      </Button>
                    </Stack>
                  ))}
                </Box>
              ) : null}
            </Box>
          ) : (
            <Stack sx={{ gap: 1.5 }}>
              <TextField
                size="small"
                label="File name"
                value={pasteName}
                placeholder={`contract${ext}`}
                onChange={(e) => setPasteName(e.target.value)}
                sx={{ maxWidth: 360 }}
              />
              <TextField
                label="Source code"
                multiline
                minRows={8}
                maxRows={20}
                value={pasteContent}
                onChange={(e) => setPasteContent(e.target.value)}
                slotProps={{
                  htmlInput: { spellCheck: false, style: { fontFamily: 'monospace', fontSize: 13 } },
                }}
              />
            </Stack>
          )}
          {sources.length > 1 ? (
            <FormControl size="small" sx={{ maxWidth: 360 }}>
              <InputLabel id={`${id}-main`}>Main file</InputLabel>
              <Select
                labelId={`${id}-main`}
                label="Main file"
                value={main}
                onChange={(e) => setMain(e.target.value)}
              >
                {sources.map((f) => (
                  <MenuItem key={f.name} value={f.name}>
                    {f.name}
                  </MenuItem>
                ))}
              </Select>
              <FormHelperText>The file the compiler starts from.</FormHelperText>
            </FormControl>
          ) : null}
          {formError ? (
            <Alert severity="warning" role="alert">
              {formError}
            </Alert>
          ) : null}
        </Stack>
        <Box sx={{ mt: 2 }} aria-live="polite">
          {verify.isPending ? (
            <Box role="status">
              <Typography variant="body2" sx={{ mb: 0.5 }}>
                Compiling…
              </Typography>
              <LinearProgress aria-label="Compiling" />
            </Box>
          ) : verify.isError ? (
            <Alert severity="error" role="alert" sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
              {verify.error.message}
            </Alert>
          ) : result?.status === 'verified' ? (
            <Alert severity="success" role="status">
              Verified: the compiled Michelson equals the deployed code.{' '}
              <Link component={RouterLink} to={`/${network}/${address}/source`} onClick={onClose}>
                View the source
              </Link>
            </Alert>
          ) : result?.status === 'failed' ? (
            <FailedResult at={{ network, address }} verification={result} />
          ) : null}
        </Box>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
        <Button
          type="submit"
          form={`${id}-form`}
          variant="contained"
          disabled={verify.isPending || !compilers.data}
        >
          Verify
        </Button>
      </DialogActions>
    </Dialog>
  );
}
