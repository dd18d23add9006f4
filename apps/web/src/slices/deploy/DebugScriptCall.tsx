/**
 * The deploy page's debugger: a call of the script not yet deployed (an entrypoint and its parameter in
 * Michelson) run from the initial storage of the form, opened in the debugger (POST /v1/script/{network}/debug).
 */
import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { parseMichelsonExpression, type Micheline } from '@michelscope/michelson';
import type { DebugTarget } from '../debugger/debug-target';
import { LazyDebugger } from '../debugger/LazyDebugger';

export function DebugScriptCall(props: {
  network: string;
  code: Micheline[];
  /** the form's initial storage (throws when the form cannot make one) */
  storage: () => Micheline;
}) {
  const [entrypoint, setEntrypoint] = useState('default');
  const [parameter, setParameter] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [target, setTarget] = useState<DebugTarget | null>(null);

  const debug = () => {
    let storage: Micheline;
    let value: Micheline;
    try {
      storage = props.storage();
    } catch (e) {
      setError(`Initial storage: ${e instanceof Error ? e.message : String(e)}`);
      return;
    }
    try {
      value = parseMichelsonExpression(parameter);
    } catch (e) {
      setError(`Parameter: ${e instanceof Error ? e.message : String(e)}`);
      return;
    }
    setError(null);
    const name = entrypoint.trim() || 'default';
    setTarget({
      network: props.network,
      address: '',
      request: { name },
      script: { script: props.code, storage, parameter: value, entrypoint: name },
    });
  };

  return (
    <Paper variant="outlined" sx={{ p: 2 }} component="section" aria-label="Debug a call of the script">
      <Typography variant="subtitle2" component="h3" sx={{ mb: 1 }}>
        Debug a call of the script, from this initial storage
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'flex-start' } }}>
        <TextField
          size="small"
          label="Entrypoint"
          value={entrypoint}
          onChange={(e) => setEntrypoint(e.target.value)}
          sx={{ minWidth: 160 }}
        />
        <TextField
          size="small"
          label="Parameter (Michelson)"
          value={parameter}
          onChange={(e) => setParameter(e.target.value)}
          placeholder='e.g. 2 or Pair 1 "a"'
          sx={{ flex: 1, '& input': { fontFamily: 'monospace' } }}
        />
        <Button variant="outlined" onClick={debug}>
          Debug
        </Button>
      </Stack>
      {error ? (
        <Alert severity="error" sx={{ mt: 1 }}>
          {error}
        </Alert>
      ) : null}
      {target ? <LazyDebugger onClose={() => setTarget(null)} target={target} /> : null}
    </Paper>
  );
}
