/**
 * The deploy page's debugger: a call of the script not yet deployed run from the initial storage of the form,
 * opened in the debugger (POST /v1/script/{network}/debug). The parameter is a form built from the script's
 * parameter type (the Interact tab's SchemaForm, with the entrypoint chosen from the script's), or, with the
 * 'Michelson' switch, typed as Michelson. At the indexed head, or at a share link's level (that block's level and
 * time); its link keeps the level the recording ran at.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { parseMichelsonExpression, type Micheline } from '@michelscope/michelson';
import type { SharedDeploy } from '@michelscope/api-types';
import { debugQuery, type DebugAt, type DebugTarget } from '../debugger/debug-target';
import { LazyDebugger } from '../debugger/LazyDebugger';
import { SchemaForm, type FormData, type SchemaFormHandle } from '../contract/interact/SchemaForm';
import { hasNoFields } from '../contract/interact/form-schema';
import { callParameters } from '../contract/interact/call-logic';
import { scriptEntrypoints } from './deploy-logic';

/** The call debugged, as a share link keeps it. */
export type ScriptCall = NonNullable<SharedDeploy['call']>;

export const NO_PARAMETERS = 'This entrypoint takes no parameters (unit).';

export function DebugScriptCall(props: {
  network: string;
  code: Micheline[];
  /** the form's initial storage (throws when the form cannot make one) */
  storage: () => Micheline;
  /** a share link's call: it fills the form and is debugged once, at the link's position */
  opened?: { call: ScriptCall; debug?: DebugAt | undefined } | undefined;
  /** the level to run at (a share link's); the indexed head when absent */
  level?: number | undefined;
  /** the share link of a call debugged at a position ('Copy link' in the debugger), at the level it ran at */
  copyLink?: ((call: ScriptCall, at: DebugAt, level: number | undefined) => Promise<string>) | undefined;
}) {
  const client = useQueryClient();
  const entrypoints = useMemo(() => scriptEntrypoints(props.code), [props.code]);
  const formRef = useRef<SchemaFormHandle>(null);
  const first = props.opened?.call;
  const [entrypoint, setEntrypoint] = useState(
    () => entrypoints.find((e) => e.name === first?.entrypoint)?.name ?? entrypoints[0]?.name ?? 'default',
  );
  const [michelson, setMichelson] = useState(first?.mode === 'michelson');
  const [formData, setFormData] = useState<FormData>(() => first?.data ?? {});
  const [formKey, setFormKey] = useState(0);
  const [parameter, setParameter] = useState(first?.text ?? '');
  const [error, setError] = useState<string | null>(null);
  const [target, setTarget] = useState<{ debug: DebugTarget; call: ScriptCall } | null>(null);
  const [debugAt, setDebugAt] = useState<DebugAt | undefined>(undefined);
  const selected = entrypoints.find((e) => e.name === entrypoint);

  const debug = () => {
    let storage: Micheline;
    let value: Micheline;
    let name = entrypoint;
    try {
      storage = props.storage();
    } catch (e) {
      setError(`Initial storage: ${e instanceof Error ? e.message : String(e)}`);
      return;
    }
    try {
      if (michelson) value = parseMichelsonExpression(parameter);
      else {
        if (formRef.current && !formRef.current.validateForm()) return setError(null);
        const p = callParameters(props.code, entrypoint, formData);
        value = p.value;
        name = p.entrypoint;
      }
    } catch (e) {
      setError(`Parameter: ${e instanceof Error ? e.message : String(e)}`);
      return;
    }
    setError(null);
    setTarget({
      debug: {
        network: props.network,
        address: '',
        request: { name },
        script: {
          script: props.code,
          storage,
          parameter: value,
          entrypoint: name,
          ...(props.level !== undefined ? { at_level: props.level } : {}),
        },
      },
      call: {
        entrypoint,
        mode: michelson ? 'michelson' : 'form',
        data: michelson ? {} : formData,
        text: michelson ? parameter : '',
      },
    });
  };

  // a link opens: its call is debugged once, where the link's debugger stood
  const rerun = useRef(props.opened);
  useEffect(() => {
    const o = rerun.current;
    if (!o) return;
    rerun.current = undefined;
    setDebugAt(o.debug);
    debug();
    // runs once, when the section opens with a link; debug reads this render's form (the link's)
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const { copyLink } = props;
  return (
    <Paper variant="outlined" sx={{ p: 2 }} component="section" aria-label="Debug a call of the script">
      <Typography variant="subtitle2" component="h3" sx={{ mb: 1 }}>
        Debug a call of the script, from this initial storage
      </Typography>
      <Stack spacing={1}>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'center' } }}>
          <TextField
            select
            size="small"
            label="Entrypoint"
            value={entrypoint}
            onChange={(e) => {
              setEntrypoint(e.target.value);
              setFormData({});
              setFormKey((k) => k + 1);
            }}
            sx={{ minWidth: 200 }}
          >
            {entrypoints.map((e) => (
              <MenuItem key={e.name} value={e.name} sx={{ fontFamily: 'monospace' }}>
                {e.name}
              </MenuItem>
            ))}
          </TextField>
          <FormControlLabel
            control={<Switch checked={michelson} onChange={(e) => setMichelson(e.target.checked)} />}
            label="Michelson"
          />
        </Stack>
        {michelson ? (
          <TextField
            size="small"
            label="Parameter (Michelson)"
            value={parameter}
            onChange={(e) => setParameter(e.target.value)}
            placeholder='e.g. 2 or Pair 1 "a"'
            multiline
            maxRows={8}
            sx={{ '& textarea': { fontFamily: 'monospace' } }}
          />
        ) : selected && !hasNoFields(selected.schema) ? (
          <section aria-label="Parameters">
            <SchemaForm
              headingLevel={4}
              key={`${entrypoint}:${formKey}`}
              ref={formRef}
              schema={selected.schema}
              formData={formData}
              onChange={setFormData}
            />
          </section>
        ) : (
          <Typography color="text.secondary">{NO_PARAMETERS}</Typography>
        )}
        <div>
          <Button variant="outlined" onClick={debug}>
            Debug
          </Button>
        </div>
      </Stack>
      {error ? (
        <Alert severity="error" sx={{ mt: 1 }}>
          {error}
        </Alert>
      ) : null}
      {target ? (
        <LazyDebugger
          onClose={() => {
            setTarget(null);
            setDebugAt(undefined);
          }}
          target={target.debug}
          initial={debugAt}
          copyLink={
            copyLink &&
            ((at) =>
              copyLink(
                target.call,
                at,
                // the level the recording ran at (the head then, or the link's)
                client.getQueryData(debugQuery(target.debug).queryKey)?.state?.level ?? props.level,
              ))
          }
        />
      ) : null}
    </Paper>
  );
}
