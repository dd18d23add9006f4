import { useEffect, useRef, useState } from 'react';
import Accordion from '@mui/material/Accordion';
import AccordionDetails from '@mui/material/AccordionDetails';
import AccordionSummary from '@mui/material/AccordionSummary';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import ArrowUpwardIcon from '@mui/icons-material/ArrowUpward';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import { formatMichelson, type Micheline } from '@michelscope/michelson';
import { fetchStorageSchema, type FormSchema } from '../../../api/workspace-api';
import { SchemaForm } from './SchemaForm';
import { formModel } from './form-schema';
import { entrypointLabel } from './call-logic';
import {
  fieldError,
  hasOverrides,
  MAX_BUNDLE,
  moveCall,
  type BundleCall,
  type WhatIfOverrides,
  type WhatIfState,
} from './whatif-state';

const FIELDS = [
  ['balance', 'Balance (mutez)', 'numeric'],
  ['now', 'Now (ISO time or seconds)', 'text'],
  ['level', 'Level', 'numeric'],
  ['source', 'Source', 'text'],
  ['sender', 'Sender', 'text'],
  ['amount', 'Amount (mutez)', 'numeric'],
  ['chainId', 'Chain id', 'text'],
  ['storageLimit', 'Storage limit (bytes)', 'numeric'],
] as const;

const mono = { fontFamily: 'monospace' } as const;

/** The storage override: kept (the head's), edited in the storage form, or typed as Michelson / Micheline. */
function StorageOverride(props: {
  network: string;
  address: string;
  value: WhatIfOverrides;
  onChange: (o: WhatIfOverrides) => void;
  current: Micheline | undefined;
}) {
  const { value: o, onChange } = props;
  const [schema, setSchema] = useState<FormSchema | null>(null);
  const [error, setError] = useState<string | null>(null);
  const needForm = o.storageMode === 'form';
  useEffect(() => {
    if (!needForm || schema) return;
    const controller = new AbortController();
    fetchStorageSchema(props.network, props.address, 'current', { signal: controller.signal })
      .then((s) => {
        setSchema(s);
        // a new storage form starts from the current storage
        if (Object.keys(o.storageForm).length === 0)
          onChange({ ...o, storageForm: formModel(s?.schema ?? null, s?.default_model) });
      })
      .catch(
        (e: unknown) => !controller.signal.aborted && setError(e instanceof Error ? e.message : String(e)),
      );
    return () => controller.abort();
    // the form is loaded once, when first asked for
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [needForm, props.network, props.address]);
  // 'Edit as Michelson' chosen before the contract's storage came: the editor is filled once it comes (a click
  // right after the page opened left an empty editor, and an empty override, in share.e2e 1 on a loaded machine)
  const filledLate = useRef(false);
  const waitingForCurrent = o.storageMode === 'micheline' && o.storageText.trim() === '' && !props.current;
  useEffect(() => {
    if (filledLate.current || props.current === undefined) return;
    if (o.storageMode !== 'micheline' || o.storageText.trim() !== '') return;
    filledLate.current = true;
    onChange({ ...o, storageText: formatMichelson(props.current) });
    // only the storage's arrival fills the editor; a text the user cleared later stays cleared
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [props.current]);
  const storageError = fieldError('storage', o);
  return (
    <Stack sx={{ gap: 1 }}>
      <ToggleButtonGroup
        size="small"
        exclusive
        value={o.storageMode}
        aria-label="Storage override"
        onChange={(_, v: WhatIfOverrides['storageMode'] | null) => {
          if (!v) return;
          const fill = v === 'micheline' && o.storageText.trim() === '' && props.current !== undefined;
          onChange({
            ...o,
            storageMode: v,
            ...(fill ? { storageText: formatMichelson(props.current!) } : {}),
          });
        }}
        sx={{ flexWrap: 'wrap' }}
      >
        <ToggleButton value="none">Head&apos;s storage</ToggleButton>
        <ToggleButton value="form">Edit as form</ToggleButton>
        <ToggleButton value="micheline">Edit as Michelson</ToggleButton>
      </ToggleButtonGroup>
      {o.storageMode === 'micheline' ? (
        <TextField
          label="Storage (Michelson or Micheline JSON)"
          multiline
          minRows={3}
          maxRows={14}
          value={o.storageText}
          onChange={(e) => onChange({ ...o, storageText: e.target.value })}
          error={!waitingForCurrent && storageError !== null}
          helperText={
            waitingForCurrent
              ? 'Loading the current storage…'
              : (storageError ?? 'Filled with the current storage: edit what the calls should start from.')
          }
          slotProps={{ htmlInput: { spellCheck: false, style: { ...mono, fontSize: 13 } } }}
        />
      ) : null}
      {o.storageMode === 'form' ? (
        error ? (
          <Alert severity="error">{error}</Alert>
        ) : schema?.schema ? (
          <Box component="section" aria-label="Storage form">
            <Typography variant="caption" color="text.secondary">
              A big map left empty keeps the contract&apos;s; entries typed in it make a new big map (to
              change single keys, use Big-map entries below).
            </Typography>
            <SchemaForm
              headingLevel={4}
              schema={schema.schema}
              formData={o.storageForm}
              onChange={(d) => onChange({ ...o, storageForm: d })}
              network={props.network}
            />
          </Box>
        ) : (
          <Typography variant="body2" color="text.secondary">
            Loading the storage form…
          </Typography>
        )
      ) : null}
    </Stack>
  );
}

/** Overridden big-map entries: the map (id or field name), the key, the value or 'Remove the key'. */
function BigMapOverrides(props: { value: WhatIfOverrides; onChange: (o: WhatIfOverrides) => void }) {
  const { value: o, onChange } = props;
  const set = (i: number, patch: Partial<WhatIfOverrides['bigMaps'][number]>) =>
    onChange({ ...o, bigMaps: o.bigMaps.map((e, j) => (j === i ? { ...e, ...patch } : e)) });
  return (
    <Stack sx={{ gap: 1 }} component="section" aria-label="Big-map entries">
      <Typography variant="subtitle2" component="h4">
        Big-map entries
      </Typography>
      {o.bigMaps.map((e, i) => {
        const err = fieldError(`bigMaps.${i}`, o);
        return (
          <Paper key={i} variant="outlined" sx={{ p: 1 }} aria-label={`Big-map entry ${i + 1}`}>
            <Stack direction={{ xs: 'column', sm: 'row' }} sx={{ gap: 1, alignItems: { sm: 'flex-start' } }}>
              <TextField
                size="small"
                label="Big map (id or name)"
                value={e.map}
                onChange={(x) => set(i, { map: x.target.value })}
                sx={{ minWidth: 150 }}
              />
              <TextField
                size="small"
                label="Key"
                value={e.key}
                onChange={(x) => set(i, { key: x.target.value })}
                sx={{ flex: 1 }}
                slotProps={{ htmlInput: { spellCheck: false, style: mono } }}
              />
              <TextField
                size="small"
                label="Value"
                value={e.remove ? '' : e.value}
                disabled={e.remove}
                onChange={(x) => set(i, { value: x.target.value })}
                sx={{ flex: 1 }}
                slotProps={{ htmlInput: { spellCheck: false, style: mono } }}
              />
              <Stack direction="row" sx={{ alignItems: 'center' }}>
                <FormControlLabel
                  control={
                    <Checkbox checked={e.remove} onChange={(x) => set(i, { remove: x.target.checked })} />
                  }
                  label="Remove the key"
                />
                <IconButton
                  aria-label={`Delete big-map entry ${i + 1}`}
                  onClick={() => onChange({ ...o, bigMaps: o.bigMaps.filter((_, j) => j !== i) })}
                >
                  <DeleteOutlineIcon />
                </IconButton>
              </Stack>
            </Stack>
            {err ? (
              <Typography variant="caption" color="error" role="alert">
                {err}
              </Typography>
            ) : null}
          </Paper>
        );
      })}
      <Box>
        <Button
          size="small"
          disabled={o.bigMaps.length >= 100}
          onClick={() =>
            onChange({ ...o, bigMaps: [...o.bigMaps, { map: '', key: '', value: '', remove: false }] })
          }
        >
          Add big-map entry
        </Button>
      </Box>
    </Stack>
  );
}

/** The bundle: the calls a simulation runs in order, each movable and removable. */
function BundleList(props: { bundle: BundleCall[]; onChange: (b: BundleCall[]) => void }) {
  const { bundle, onChange } = props;
  if (bundle.length === 0) return null;
  return (
    <Paper variant="outlined" component="section" aria-label="Bundle" sx={{ p: 1.5 }}>
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', gap: 1 }}>
        <Typography variant="subtitle2" component="h3">
          Bundle: {bundle.length} of {MAX_BUNDLE} calls, run in order
        </Typography>
        <Button size="small" onClick={() => onChange([])}>
          Clear bundle
        </Button>
      </Stack>
      <Box component="ol" aria-label="Bundle calls" sx={{ m: 0, pl: 3 }}>
        {bundle.map((c, i) => {
          const label = `${entrypointLabel(c.entrypoint)}${c.amount ? ` · ${c.amount} mutez` : ''}`;
          return (
            <Box component="li" key={i} aria-label={`Call ${i + 1}: ${entrypointLabel(c.entrypoint)}`}>
              <Stack direction="row" sx={{ alignItems: 'center', gap: 0.5, minWidth: 0 }}>
                <Box sx={{ flex: 1, minWidth: 0 }}>
                  <Typography variant="body2" sx={mono}>
                    {label}
                  </Typography>
                  <Typography
                    variant="caption"
                    color="text.secondary"
                    sx={{
                      ...mono,
                      display: 'block',
                      overflow: 'hidden',
                      textOverflow: 'ellipsis',
                      whiteSpace: 'nowrap',
                    }}
                  >
                    {JSON.stringify(c.data)}
                  </Typography>
                </Box>
                <IconButton
                  size="small"
                  aria-label={`Move call ${i + 1} up`}
                  disabled={i === 0}
                  onClick={() => onChange(moveCall(bundle, i, -1))}
                >
                  <ArrowUpwardIcon fontSize="small" />
                </IconButton>
                <IconButton
                  size="small"
                  aria-label={`Move call ${i + 1} down`}
                  disabled={i === bundle.length - 1}
                  onClick={() => onChange(moveCall(bundle, i, 1))}
                >
                  <ArrowDownwardIcon fontSize="small" />
                </IconButton>
                <IconButton
                  size="small"
                  aria-label={`Remove call ${i + 1}`}
                  onClick={() => onChange(bundle.filter((_, j) => j !== i))}
                >
                  <DeleteOutlineIcon fontSize="small" />
                </IconButton>
              </Stack>
            </Box>
          );
        })}
      </Box>
    </Paper>
  );
}

/**
 * What-if in the Interact form: the 'Overrides' section (collapsed at first) and the bundle of calls. The
 * state is one serialisable object (`WhatIfState`, whatif-state.ts) kept by the Interact tab.
 */
export function WhatIfSection(props: {
  network: string;
  address: string;
  state: WhatIfState;
  onChange: (s: WhatIfState) => void;
  /** the current form's call, or null when the form is not valid (its errors are then shown) */
  currentCall: () => BundleCall | null;
  /** the current storage, to start the Michelson editor from */
  currentStorage: Micheline | undefined;
  disabled?: boolean;
}) {
  const { state, onChange } = props;
  const o = state.overrides;
  const setO = (next: WhatIfOverrides) => onChange({ ...state, overrides: next });
  const active = hasOverrides(o);
  const [expanded, setExpanded] = useState(active);
  return (
    <Stack sx={{ gap: 1 }}>
      <Accordion
        disableGutters
        variant="outlined"
        expanded={expanded}
        onChange={(_, v) => setExpanded(v)}
        // opens at once, without the collapse's animation: while it grew, the browser's scroll anchoring moved the
        // section's buttons, and a click whose press and release fell on different elements did nothing ('Add
        // big-map entry' lost in ~1 click of 4 on a loaded machine: whatif.e2e 2, passed only on its retry)
        slotProps={{ transition: { unmountOnExit: true, timeout: 0 } }}
      >
        <AccordionSummary
          expandIcon={<ExpandMoreIcon />}
          aria-controls="whatif-overrides"
          id="whatif-overrides-h"
        >
          <Typography>
            Overrides{active ? ' · set' : ''}
            <Typography component="span" variant="body2" color="text.secondary">
              {' '}
              — what-if: storage, balance, time, level, callers, big-map entries
            </Typography>
          </Typography>
        </AccordionSummary>
        <AccordionDetails>
          <Stack sx={{ gap: 2 }}>
            <StorageOverride
              network={props.network}
              address={props.address}
              value={o}
              onChange={setO}
              current={props.currentStorage}
            />
            <Box
              sx={{
                display: 'grid',
                gap: 1,
                gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr', lg: '1fr 1fr 1fr' },
              }}
            >
              {FIELDS.map(([k, label, mode]) => {
                const err = fieldError(k, o);
                return (
                  <TextField
                    key={k}
                    size="small"
                    label={label}
                    value={o[k] ?? ''}
                    onChange={(e) => setO({ ...o, [k]: e.target.value })}
                    error={err !== null}
                    helperText={err ?? ' '}
                    slotProps={{ htmlInput: { inputMode: mode, spellCheck: false } }}
                  />
                );
              })}
            </Box>
            <BigMapOverrides value={o} onChange={setO} />
            <Typography variant="caption" color="text.secondary">
              Empty fields keep the indexed head&apos;s values. Source, sender and amount are the calls&apos;
              defaults; a bundle call&apos;s own settings win. Runs in Michelscope&apos;s interpreter with the
              internal operations, as the chain applies them; a storage limit fails a call that pays for more
              bytes.
            </Typography>
          </Stack>
        </AccordionDetails>
      </Accordion>
      <Box>
        <Button
          size="small"
          disabled={props.disabled || state.bundle.length >= MAX_BUNDLE}
          onClick={() => {
            const c = props.currentCall();
            if (c) onChange({ ...state, bundle: [...state.bundle, c] });
          }}
        >
          Add call to bundle
        </Button>
      </Box>
      <BundleList bundle={state.bundle} onChange={(b) => onChange({ ...state, bundle: b })} />
    </Stack>
  );
}
