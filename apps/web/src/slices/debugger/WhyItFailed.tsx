import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { formatMichelsonInline, stackAt } from '@michelscope/michelson';
import type { DebugResult } from '@michelscope/api-types';
import { formatTez } from '../../shared/format/format';
import { storageExhaustionText } from '../operation/storage-exhaustion';
import { failedGasText, gasUnitsText } from './debugger-logic';
import { itemText } from './stack-item';
import { SourceLineNote } from './SourceLineNote';
import type { SourceLine } from './source-line';

/**
 * Why a call failed: the FAILWITH value decoded, the failing instruction and its line (and its verified source
 * line, issue 38), the stack then.
 */
export function WhyItFailed(props: {
  d: DebugResult;
  lines: string[];
  /** the verified source line of a location, when the contract has a source map */
  sourceAt?: ((loc: number | undefined) => SourceLine | undefined) | undefined;
  onJump: () => void;
}) {
  const { d } = props;
  const f = d.failure;
  const span = f?.location !== undefined ? d.spans[f.location] : undefined;
  const top = d.trace.steps > 0 ? stackAt(d.trace, d.trace.steps - 1).at(-1) : undefined;
  const value =
    f?.kind === 'script_rejected'
      ? top !== undefined
        ? itemText(d, top)
        : { type: '', value: f.with ? formatMichelsonInline(f.with) : 'Unit' }
      : undefined;
  const sourceLine = span ? props.sourceAt?.(f?.location) : undefined;
  const instruction = span ? (props.lines[span[0]] ?? '').slice(span[1], span[2]).split(/[\s{}]/)[0] : '';
  return (
    <Alert
      severity="error"
      sx={{ mb: 1 }}
      aria-label="Why it failed"
      action={
        <Button color="inherit" size="small" onClick={props.onJump}>
          Show
        </Button>
      }
    >
      {value ? (
        <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
          Failed with <code>{value.value}</code>
          {value.type ? ` (${value.type})` : ''}
        </Typography>
      ) : f?.kind === 'gas_exhausted' ? (
        <Typography variant="body2">
          Ran out of gas: limit {gasUnitsText(d.gas_limit)}, used {gasUnitsText(d.consumed_milligas)}
        </Typography>
      ) : f?.storage ? (
        <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
          Ran out of storage: {storageExhaustionText(f.storage)}
        </Typography>
      ) : f?.burn ? (
        <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
          Cannot pay the storage burn: {f.burn.payer} holds {formatTez(f.burn.balance)}, the burn is{' '}
          {formatTez(f.burn.burn)}
        </Typography>
      ) : (
        <Typography variant="body2">{f?.message ?? 'The call failed'}</Typography>
      )}
      {f?.meaning ? (
        <Typography variant="body2" aria-label="Error meaning" sx={{ overflowWrap: 'anywhere' }}>
          Meaning (contract metadata{f.meaning.view ? `, view ${f.meaning.view}` : ''}): {f.meaning.text}
        </Typography>
      ) : null}
      <Typography variant="body2">
        {instruction ||
          (f?.storage || f?.burn
            ? 'After the script ran to its end'
            : f?.location !== undefined
              ? 'In code that is not the script’s (a lambda it ran)'
              : 'Instruction')}
        {span ? ` at line ${span[0] + 1}` : ''} · {failedGasText(f?.kind, d.consumed_milligas)} (limit{' '}
        {gasUnitsText(d.gas_limit)})
      </Typography>
      {sourceLine ? (
        <Box sx={{ mt: 0.5 }}>
          <SourceLineNote at={sourceLine} label="Failing source line" />
        </Box>
      ) : null}
    </Alert>
  );
}
