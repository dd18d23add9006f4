import { lazy, Suspense, useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Grid from '@mui/material/Grid';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { errorWindow, type Micheline } from '@michelscope/michelson';
import { errorLocationQuery } from '../../api/operation-api';
import { contractSourceQuery } from '../../api/verify-api';
import { pathsOfScript, sourceLineFinder } from '../debugger/source-line';
import { SourceLineNote } from '../debugger/SourceLineNote';
import type { ErrorLocation, Operation, OperationError } from '../../api/opg-types';
import { formatTez } from '../../shared/format/format';
import { visibleErrors } from './operation-status';

const isScriptRejected = (e: OperationError) => e.id.includes('script_rejected');
const isMismatch = (e: OperationError) =>
  e.id.includes('invalid_syntactic_constant') ||
  e.id.includes('invalidSyntacticConstant') ||
  e.expected_form !== undefined;
const isBalanceTooLow = (e: OperationError) => e.id.includes('balance_too_low');

const MichelsonCode = lazy(async () => ({
  default: (await import('../../shared/micheline/MichelsonCode')).MichelsonCode,
}));

/** The failed code window as plain text (shown while the highlighted viewer loads). */
function PlainFailedCode({ location }: { location: ErrorLocation }) {
  const lines = location.text.split('\n');
  return (
    <Box
      component="pre"
      sx={{ m: 0, mt: 1, p: 1, overflowX: 'auto', fontSize: 13, bgcolor: 'action.hover', borderRadius: 1 }}
    >
      {lines.map((line, i) => (
        <Box component="div" key={i}>
          <Box
            component="span"
            sx={{ color: 'text.secondary', userSelect: 'none', display: 'inline-block', minWidth: 40 }}
          >
            {location.first_row + i}
          </Box>
          {line}
        </Box>
      ))}
    </Box>
  );
}

/**
 * The failed code window: 5 lines around the failing node, highlighted, numbered from `first_row`,
 * with the node's span on `failed_row` marked red (columns 0-based, end exclusive).
 */
export function FailedCode({ location }: { location: ErrorLocation }) {
  const mark = {
    line: location.failed_row - location.first_row + 1,
    startCol: location.start_col,
    endCol: location.end_col,
  };
  return (
    <Box sx={{ mt: 1 }}>
      <Suspense fallback={<PlainFailedCode location={location} />}>
        <MichelsonCode
          code={location.text}
          label="Failed code"
          firstLineNumber={location.first_row}
          mark={mark}
          maxHeight={240}
        />
      </Suspense>
    </Box>
  );
}

function FailedCodeLoader({ network, id }: { network: string; id: number }) {
  const query = useQuery(errorLocationQuery(network, id));
  if (query.isPending) return <LinearProgress aria-label="Loading failed code" />;
  if (query.isError) return <Typography color="error">{query.error.message}</Typography>;
  return <FailedCode location={query.data} />;
}

/**
 * The verified source line of a simulated call's failing instruction (issue 38): the contract's source map, asked
 * for when the failed code opens (one request; a contract without a verified source answers 404: nothing shown).
 */
function FailedSourceLine(props: { network: string; address: string; code: Micheline; location: number }) {
  const source = useQuery(contractSourceQuery(props.network, props.address));
  const { code, location } = props;
  const at = useMemo(() => {
    const find = sourceLineFinder(source.data ? pathsOfScript(code) : [], source.data);
    return find?.(location);
  }, [source.data, code, location]);
  return at ? (
    <Box sx={{ mt: 1 }}>
      <SourceLineNote at={at} label="Failing source line" />
    </Box>
  ) : null;
}

function ErrorAlert({
  op,
  error,
  code,
}: {
  op: Operation;
  error: OperationError;
  code?: Micheline | undefined;
}) {
  const [showCode, setShowCode] = useState(false);
  const [showMismatch, setShowMismatch] = useState(false);
  // a stored operation's failed code comes from the API; a simulated one's from the script it ran
  const simulated = !op.id && code !== undefined && error.location !== undefined;
  const local = useMemo(
    () => (simulated && showCode ? (errorWindow(code, error.location!) ?? null) : null),
    [simulated, showCode, code, error.location],
  );
  const canLocate = isScriptRejected(error) && (!!op.id || simulated);
  return (
    <Alert severity="error" variant="outlined" sx={{ '& .MuiAlert-message': { minWidth: 0, flexGrow: 1 } }}>
      <AlertTitle>{error.title || error.id || 'Error'}</AlertTitle>
      {error.descr ? <Typography variant="body2">{error.descr}</Typography> : null}
      {isBalanceTooLow(error) && error.balance !== undefined && error.amount !== undefined ? (
        <Typography variant="body2" sx={{ mt: 0.5 }}>
          Balance {formatTez(error.balance)} is less than {formatTez(error.amount)}
        </Typography>
      ) : null}
      {error.with !== undefined ? (
        <Typography
          variant="body2"
          sx={{ mt: 0.5, fontFamily: 'monospace', overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}
        >
          with: {error.with}
        </Typography>
      ) : null}
      <Stack direction="row" spacing={1} sx={{ mt: 1 }}>
        {canLocate ? (
          <Button size="small" color="error" aria-expanded={showCode} onClick={() => setShowCode((v) => !v)}>
            Show failed code
          </Button>
        ) : null}
        {isMismatch(error) && (error.wrong_expression !== undefined || error.expected_form !== undefined) ? (
          <Button
            size="small"
            color="error"
            aria-expanded={showMismatch}
            onClick={() => setShowMismatch((v) => !v)}
          >
            Show mismatch
          </Button>
        ) : null}
      </Stack>
      {showCode && op.id ? <FailedCodeLoader network={op.network} id={op.id} /> : null}
      {showCode && local ? <FailedCode location={local} /> : null}
      {showCode && local && op.destination?.startsWith('KT1') ? (
        <FailedSourceLine
          network={op.network}
          address={op.destination}
          code={code!}
          location={error.location!}
        />
      ) : null}
      {showMismatch ? (
        <Grid container spacing={1} sx={{ mt: 1 }}>
          {(
            [
              ['Wrong expression', error.wrong_expression],
              ['Expected form', error.expected_form],
            ] as const
          ).map(([title, text]) => (
            <Grid key={title} size={{ xs: 12, md: 6 }}>
              <Typography variant="caption">{title}</Typography>
              <Box
                component="pre"
                sx={{ m: 0, p: 1, fontSize: 13, overflowX: 'auto', bgcolor: 'action.hover' }}
              >
                {text ?? ''}
              </Box>
            </Grid>
          ))}
        </Grid>
      ) : null}
    </Alert>
  );
}

/**
 * Error alerts of an operation (runtime_error entries hidden). `code`: the script a simulated operation ran,
 * for its 'Show failed code'.
 */
export function OperationErrors({ op, code }: { op: Operation; code?: Micheline | undefined }) {
  const errors = visibleErrors(op);
  if (errors.length === 0) return null;
  return (
    <Stack spacing={1} sx={{ my: 1 }}>
      {errors.map((error, i) => (
        <ErrorAlert key={`${error.id}-${i}`} op={op} error={error} code={code} />
      ))}
    </Stack>
  );
}
