import { useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControl from '@mui/material/FormControl';
import InputLabel from '@mui/material/InputLabel';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Select from '@mui/material/Select';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { codeQuery, contractConstantsQuery, migrationsQuery } from '../../../api/contract-api';
import { useCopy } from '../../../shared/clipboard/useCopy';
import { RawJsonDialog } from '../../../shared/json/RawJsonDialog';
import { MichelsonCode, type MichelsonCodeHandle } from '../../../shared/micheline/MichelsonCode';
import type { CodeMark } from '../../../shared/micheline/michelson-tokens';
import { ContractFrame } from '../ContractFrame';
import type { ContractPageData } from '../useContractPage';
import type { CodeJson } from './code-json';
import { ConstantsDialog } from './ConstantsDialog';
import { VerifyButton } from '../source/VerifyButton';
import { CodeCompare } from './CodeCompare';
import { legFromQuery, legToQuery } from './code-compare-logic';
import { codeFileName, protocolFromQuery, protocolOptions, shortProtocol } from './code-versions';
import { downloadText } from '../../../shared/download/save-file';

const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e));

/**
 * Micheline JSON of `code` (undefined: none wanted), converted by ./code-json, which loads on first use;
 * null until it is there.
 */
function useCodeJson(code: string | undefined): CodeJson | null {
  const [result, setResult] = useState<{ code: string; json: CodeJson } | null>(null);
  useEffect(() => {
    if (code === undefined) return;
    let live = true;
    void import('./code-json').then(
      ({ codeJson }) => {
        if (live) setResult({ code, json: codeJson(code) });
      },
      (e: unknown) => {
        const error = `The code could not be converted to JSON: ${errorText(e)}`;
        if (live) setResult({ code, json: { value: null, error } });
      },
    );
    return () => {
      live = false;
    };
  }, [code]);
  return code !== undefined && result?.code === code ? result.json : null;
}

/** `?line=N` (1-based, as the Security tab's evidence links give it): N, else null. */
export function lineFromQuery(value: string | null): number | null {
  if (value === null || !/^[1-9][0-9]{0,6}$/.test(value)) return null;
  return Number(value);
}

/** The mark of line `line` of `code` (its text without the indentation), or null when there is no such line. */
export function lineMark(code: string | undefined, line: number | null): CodeMark | null {
  if (code === undefined || line === null) return null;
  const text = code.split('\n')[line - 1];
  if (text === undefined) return null;
  const start = text.length - text.trimStart().length;
  return { line, startCol: start, endCol: Math.max(start + 1, text.trimEnd().length) };
}

/**
 * The code tab (workspace spec §2 "Code tab"). `?line=N` marks line N of the latest code and scrolls to it
 * (the Security tab's evidence links, issue 37).
 */
export function CodeTab({ data }: { data: ContractPageData }) {
  const viewer = useRef<MichelsonCodeHandle>(null);
  const { network, address } = data;
  const [params, setParams] = useSearchParams();
  const protocol = protocolFromQuery(params.get('protocol'));
  const [dialog, setDialog] = useState<'raw' | 'constants' | null>(null);
  const code = useQuery(codeQuery(network, address, protocol));
  const migrations = useQuery({ ...migrationsQuery(network, address), meta: { silent: true } });
  const constants = useQuery({
    ...contractConstantsQuery(network, address, 0),
    meta: { silent: true },
    retry: false,
  });
  const copy = useCopy();
  const options = protocolOptions(protocol, migrations.data ?? []);
  const raw = useCodeJson(dialog === 'raw' ? code.data : undefined);
  const line = protocol === null ? lineFromQuery(params.get('line')) : null;
  const mark = useMemo(() => lineMark(code.data, line), [code.data, line]);

  const other = legFromQuery(params.get('compare'));
  const comparing = other !== null || params.has('compare');
  const setCompare = (value: string | null) => {
    const next = new URLSearchParams(params);
    if (value === null) next.delete('compare');
    else next.set('compare', value);
    setParams(next);
  };
  if (comparing)
    return (
      <CodeCompare
        network={network}
        address={address}
        protocol={protocol}
        other={other}
        onPick={(leg) => setCompare(legToQuery(leg))}
        onClose={() => setCompare(null)}
      />
    );

  const selectProtocol = (value: string) => {
    const next = new URLSearchParams(params);
    if (value === 'latest') next.delete('protocol');
    else next.set('protocol', value);
    next.delete('line'); // a line of the latest code
    setParams(next, { replace: true });
  };

  return (
    <Box>
      <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1, alignItems: 'center', mb: 1 }}>
        <FormControl size="small" sx={{ minWidth: 180 }}>
          <InputLabel id="code-version">Protocol</InputLabel>
          <Select
            labelId="code-version"
            label="Protocol"
            value={protocol ?? 'latest'}
            onChange={(e) => selectProtocol(e.target.value)}
          >
            <MenuItem value="latest">Latest</MenuItem>
            {options.map((p) => (
              <MenuItem key={p} value={p} title={p}>
                {shortProtocol(p)}
              </MenuItem>
            ))}
          </Select>
        </FormControl>
        {(constants.data?.length ?? 0) > 0 ? (
          <Button size="small" variant="outlined" onClick={() => setDialog('constants')}>
            Using constants
          </Button>
        ) : null}
        <Button size="small" variant="outlined" onClick={() => setCompare('')}>
          Compare code
        </Button>
        {protocol === null ? <VerifyButton network={network} address={address} /> : null}
        {/* the code's actions stay together on one row, at the right (on a phone: a row of their own,
            with a narrower padding so that 'Download as .tz' fits beside the others at 375 px) */}
        <Stack direction="row" sx={{ gap: { xs: 0.25, sm: 1 }, ml: 'auto', '& > button': ACTION_BUTTON }}>
          <Button size="small" disabled={code.data === undefined} onClick={() => viewer.current?.search()}>
            Search
          </Button>
          <Button
            size="small"
            disabled={code.data === undefined}
            onClick={() => code.data !== undefined && void copy(code.data)}
          >
            Copy
          </Button>
          <Button size="small" disabled={code.data === undefined} onClick={() => setDialog('raw')}>
            Raw JSON
          </Button>
          <Button
            size="small"
            disabled={code.data === undefined}
            onClick={() =>
              code.data !== undefined && downloadText(codeFileName(address, protocol), code.data)
            }
          >
            Download as .tz
          </Button>
        </Stack>
      </Stack>
      <Paper variant="outlined" sx={{ p: 1 }}>
        {code.isPending ? (
          <LinearProgress aria-label="Loading code" />
        ) : code.isError ? (
          <Typography color="error">{code.error.message}</Typography>
        ) : (
          <MichelsonCode
            ref={viewer}
            code={code.data}
            label="Michelson code"
            maxHeight="75vh"
            mark={mark}
            scrollToMark
          />
        )}
      </Paper>
      <RawJsonDialog
        open={dialog === 'raw'}
        onClose={() => setDialog(null)}
        title="Code: raw JSON"
        value={raw?.value ?? undefined}
        loading={dialog === 'raw' && code.data !== undefined && raw === null}
        error={raw?.error ?? null}
      />
      <ConstantsDialog
        network={network}
        address={address}
        open={dialog === 'constants'}
        onClose={() => setDialog(null)}
      />
    </Box>
  );
}

/** A code action's button: MUI's small text button, narrower on a phone. */
const ACTION_BUTTON = { minWidth: { xs: 0, sm: 64 }, px: { xs: 0.75, sm: '5px' }, whiteSpace: 'nowrap' };

/** /{network}/{address}/code */
export function CodePage() {
  return <ContractFrame tab="code">{(data) => <CodeTab data={data} />}</ContractFrame>;
}
