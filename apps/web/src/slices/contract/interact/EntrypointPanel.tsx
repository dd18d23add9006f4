import { useEffect, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { StateLevel, WhatIfRequest, WhatIfResult } from '@michelscope/api-types';
import { isPrim, type Micheline } from '@michelscope/michelson';
import { runAction } from '../../../api/resources';
import { scriptQuery, simulateCall, type FormSchema } from '../../../api/workspace-api';
import type { Operation } from '../../../api/opg-types';
import { SANDBOX_ACCOUNTS, SANDBOX_NETWORK } from '../../../features/wallet/sandbox-accounts';
import { TypedefPanel } from '../../../shared/micheline/TypedefPanel';
import { useWallet } from '../../../features/wallet/useWallet';
import { WalletMenu } from '../../../features/wallet/WalletMenu';
import { useWalletResetOnOpen } from '../../../features/wallet/wallet-reset';
import { callParameters, entrypointLabel } from './call-logic';
import type { DebugTarget } from '../../debugger/debug-target';
import { InjectionAlert, useInjection } from '../../../features/wallet/useInjection';
import { SchemaForm, type SchemaFormHandle } from './SchemaForm';
import { hasNoFields } from './form-schema';
import {
  SettingsFields,
  settingsError,
  StorageLimitField,
  storageLimitError,
  type Settings,
} from './SettingsFields';
import { ApprovalsSection } from './ApprovalsSection';
import { approvalBatch, type ApprovalEntry } from './approvals';
import { fetchApproveData } from './approvals-api';
import { WhatIfSection } from './WhatIfSection';
import { hasOverrides, whatIfRequest, type BundleCall, type WhatIfState } from './whatif-state';
import { type DebugPosition, type ShareState } from './share-link';
import { linkOf } from './useOpenedShare';
import { useEntrypointFill } from './useEntrypointFill';
import { EntrypointDialogs, type CallParams, type EntrypointDialog } from './EntrypointDialogs';

export const NO_TYPEDEF = 'No typedef for this entrypoint.';
export const NO_PARAMETERS = 'This entrypoint takes no parameters (unit).';

interface Props {
  network: string;
  address: string;
  entrypoint: FormSchema;
  /** the Interact tab's what-if state (overrides and bundle), kept across entrypoints */
  whatIf: WhatIfState;
  onWhatIfChange: (s: WhatIfState) => void;
  /** a shared simulation (a link) to fill the form with and run once, when the panel opens */
  opened?: ShareState | undefined;
  /** called when the shared simulation starts running */
  onOpened?: () => void;
}

/** The form of one entrypoint: fill type, parameters, settings, the five actions and their dialogs. */
export function EntrypointPanel(props: Props) {
  const { network, address, entrypoint, whatIf, onWhatIfChange, opened } = props;
  const formRef = useRef<SchemaFormHandle>(null);
  const [settings, setSettings] = useState<Settings>(() =>
    opened
      ? { source: opened.settings.source, sender: opened.settings.sender, amount: opened.settings.amount }
      : { source: '', sender: '', amount: '' },
  );
  // the node simulation's storage limit (bytes; empty: the node's maximum), kept in a link's settings
  const [storageLimit, setStorageLimit] = useState(() => opened?.settings.storageLimit ?? '');
  // the inputs of the result shown (its 'Copy link'), and where a link opens its debugger
  const [ran, setRan] = useState<ShareState | null>(null);
  const [debugAt, setDebugAt] = useState<DebugPosition | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  const [dialog, setDialog] = useState<EntrypointDialog>(null);
  const [params, setParams] = useState<CallParams | null>(null);
  const [simulation, setSimulation] = useState<Operation[]>([]);
  const [simulated, setSimulated] = useState<DebugTarget | undefined>(undefined);
  // the level the node simulation read the chain at (the indexed head then)
  const [simulatedAt, setSimulatedAt] = useState<StateLevel | undefined>(undefined);
  const [approvals, setApprovals] = useState<ApprovalEntry[]>([]);
  const [whatIfRun, setWhatIfRun] = useState<{ request: WhatIfRequest; result: WhatIfResult } | null>(null);
  const script = useQuery(scriptQuery(network, address));
  // The wallet connection is reset when the form opens (spec, Forms and fill types).
  useWalletResetOnOpen();
  const session = useWallet(network);
  const injection = useInjection(network);

  const { fillType, changeFill, formData, setFormData, formKey, filling } = useEntrypointFill({
    network,
    address,
    entrypoint,
    initialData: opened?.data,
    setError,
  });

  /** Validates the form and settings and builds the call's parameters, or shows why it cannot. */
  const build = (): CallParams | null => {
    setError(null);
    if (formRef.current && !formRef.current.validateForm()) return null;
    const bad = settingsError(settings) ?? storageLimitError(storageLimit);
    if (bad) return (setError(bad), null);
    if (!script.data)
      return (
        setError(
          script.isError
            ? `The contract script could not be loaded: ${script.error.message}`
            : 'The contract script is not loaded yet.',
        ),
        null
      );
    try {
      const p = callParameters(script.data.code, entrypoint.name, formData);
      setParams(p);
      return p;
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
      return null;
    }
  };

  const amount = Number(settings.amount || '0');
  // the node applies the call for a source: the one given, the wallet's, or on the sandbox its first
  // bootstrap account (public test keys); without one only the code runs (no gas or burn figures)
  const defaultSource = () =>
    settings.source ||
    session.wallet?.address ||
    (network === SANDBOX_NETWORK ? SANDBOX_ACCOUNTS[0]!.pkh : '');
  /** The current form as a bundle call, or null (the form's errors are then shown). */
  const currentCall = (): BundleCall | null =>
    build()
      ? {
          entrypoint: entrypoint.name,
          data: formData,
          amount: settings.amount.trim(),
          source: settings.source.trim(),
          sender: settings.sender.trim(),
        }
      : null;
  const storageType = (): Micheline | undefined => {
    const section = script.data?.code.find((c) => isPrim(c) && c.prim === 'storage');
    return section && isPrim(section) ? section.args?.[0] : undefined;
  };
  const bundled = whatIf.bundle.length > 0;
  /** The inputs of a run, as a share link keeps them, pinned to the level it ran at. */
  const snapshot = (show: ShareState['show'], w: WhatIfState, level: number | undefined): ShareState => ({
    v: 1,
    network,
    address,
    entrypoint: entrypoint.name,
    data: formData,
    settings: { ...settings, ...(storageLimit.trim() ? { storageLimit: storageLimit.trim() } : {}) },
    what_if: w,
    show,
    ...(level !== undefined ? { level } : {}),
  });
  /**
   * A what-if: the bundle (or the current call) against the overrides, run by the API's interpreter against the
   * head, or against the state at `atLevel` (a link pinned to the level it was simulated at). `nodeWhenUnchanged`
   * (a pinned node simulation): when the contract has not changed since that level, the node's simulation at
   * the head is the result the link was made with, and it is shown as such.
   */
  const simulateWhatIf = async (w: WhatIfState = whatIf, atLevel?: number, nodeWhenUnchanged = false) => {
    setError(null);
    let current: BundleCall | null = null;
    if (w.bundle.length === 0 && !(current = currentCall())) return;
    let request: WhatIfRequest;
    try {
      request = whatIfRequest(w, current ?? w.bundle[0]!, storageType(), script.data?.storage);
    } catch (e) {
      setError(`Overrides: ${e instanceof Error ? e.message : String(e)}`);
      return;
    }
    const fallback = defaultSource();
    if (fallback && !request.overrides?.source)
      request = { ...request, calls: request.calls.map((c) => (c.source ? c : { ...c, source: fallback })) };
    if (atLevel !== undefined) request = { ...request, at_level: atLevel };
    await injection.run(async () => {
      const result = await runAction('whatIf', { network, address }, request);
      if (nodeWhenUnchanged && result.state && !result.state.changed_since) return nodeRun(result.state);
      setWhatIfRun({ request, result });
      setRan(snapshot('whatif', w, result.state?.level));
      setDialog('whatif');
      return null;
    }, setError);
  };
  const simulate = async () => {
    if (bundled || hasOverrides(whatIf.overrides)) return simulateWhatIf();
    return simulateNode();
  };
  /** The node's simulation of the form's call (no overrides). */
  const simulateNode = async () => {
    if (!build()) return;
    await injection.run(() => nodeRun(), setError);
  };
  /** Runs the node's simulation and shows it (`pinned`: the level of the link it reruns, its state unchanged). */
  const nodeRun = async (pinned?: StateLevel) => {
    const source = defaultSource();
    const limit = storageLimit.trim() ? Number(storageLimit.trim()) : undefined;
    const ops = await simulateCall(network, address, entrypoint.name, formData, {
      source,
      sender: settings.sender,
      amount,
      storageLimit: limit,
    });
    setSimulation(ops);
    setSimulated({
      network,
      address,
      request: {
        name: entrypoint.name,
        data: formData,
        ...(source ? { source } : {}),
        ...(settings.sender ? { sender: settings.sender } : {}),
        ...(amount ? { amount } : {}),
        ...(limit !== undefined ? { storage_limit: limit } : {}),
        // a link's rerun, pinned to its level: the debugger reads the state at that level too
        ...(pinned ? { at_level: pinned.level } : {}),
      },
    });
    const level = ops[0]?.level;
    const at = pinned ?? (level ? { level, head_level: level, changed_since: false } : undefined);
    setSimulatedAt(at);
    setRan(snapshot('simulation', whatIf, at?.level));
    setDialog('simulation');
    return null;
  };
  const send = async () => {
    const p = build();
    if (!p) return;
    const main = {
      kind: 'transaction' as const,
      destination: address,
      amount: String(amount),
      parameters: p,
    };
    await injection.run(async () => {
      // The approval calls come from POST /v1/helpers/approve/data with the called contract as spender;
      // the batch: FA1.2 revokes, FA1.2 approves, FA2 approves, the call, FA2 revokes.
      let batch;
      try {
        batch = approvalBatch(main, approvals.length > 0 ? await fetchApproveData(approvals, address) : null);
      } catch (e) {
        // the API's building errors ('invalid spender address: {x}', …) are shown as they are
        setError(e instanceof Error ? e.message : String(e));
        return null;
      }
      const wallet = await session.requestWallet();
      const res = await wallet.send(batch);
      return { opHash: res.opHash, broadcast: wallet.kind === 'beacon' };
    }, setError);
  };
  // a link opens: once the script is there, its simulation runs (nothing else: no wallet, no send)
  const rerun = useRef(opened);
  useEffect(() => {
    const s = rerun.current;
    if (!s || !script.data) return;
    rerun.current = undefined;
    props.onOpened?.();
    setDebugAt(s.debug);
    // a link pinned to a level reruns against the state at that level: the node only simulates at its head, so
    // a simulation reruns through the what-if (the same interpreter run, the same result fields)
    // a simulation with a storage limit that reruns through the what-if runs with that limit
    const limit = s.show === 'simulation' ? s.settings.storageLimit : undefined;
    const pinned =
      limit && !s.what_if.overrides.storageLimit
        ? { ...s.what_if, overrides: { ...s.what_if.overrides, storageLimit: limit } }
        : s.what_if;
    void (s.level !== undefined
      ? simulateWhatIf(pinned, s.level, s.show === 'simulation')
      : s.show === 'whatif'
        ? simulateWhatIf(s.what_if)
        : simulateNode());
    // runs once, when the script arrives; the functions read this render's form
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [script.data]);
  const copyLink = (debug?: DebugPosition) =>
    ran
      ? linkOf({ ...ran, ...(debug ? { debug } : {}) })
      : Promise.reject(new Error('nothing simulated yet'));

  const busy = injection.busy || filling;
  // the actions build the call from the contract's script: they wait for it as they wait for a fill (a click
  // before it came said 'not loaded yet' and did nothing)
  const actionsBusy = busy || script.isPending;
  const open = (d: EntrypointDialog) => {
    if (build()) setDialog(d);
  };

  return (
    <Stack spacing={2}>
      <Stack
        direction="row"
        sx={{ alignItems: 'center', justifyContent: 'space-between', gap: 1, flexWrap: 'wrap' }}
      >
        <Typography variant="h6" component="h2" sx={{ fontFamily: 'monospace' }}>
          {entrypointLabel(entrypoint.name)}
        </Typography>
        <WalletMenu session={session} />
      </Stack>
      <TextField
        select
        size="small"
        label="Fill type"
        value={fillType}
        onChange={(e) => changeFill(e.target.value as 'empty' | 'latest')}
        sx={{ maxWidth: 240 }}
      >
        <MenuItem value="empty">Empty</MenuItem>
        <MenuItem value="latest">Latest call</MenuItem>
      </TextField>
      {entrypoint.schema && hasNoFields(entrypoint.schema) ? (
        <Typography color="text.secondary">{NO_PARAMETERS}</Typography>
      ) : entrypoint.schema ? (
        <Box component="section" aria-label="Parameters">
          <SchemaForm
            key={formKey}
            ref={formRef}
            schema={entrypoint.schema}
            formData={formData}
            onChange={setFormData}
            disabled={busy}
            network={network}
          />
        </Box>
      ) : (
        <Typography color="text.secondary">{NO_TYPEDEF}</Typography>
      )}
      <SettingsFields value={settings} onChange={setSettings} />
      <StorageLimitField value={storageLimit} onChange={setStorageLimit} />
      <ApprovalsSection
        value={approvals}
        onChange={setApprovals}
        owner={session.wallet?.address ?? ''}
        disabled={busy}
      />
      <WhatIfSection
        network={network}
        address={address}
        state={whatIf}
        onChange={onWhatIfChange}
        currentCall={currentCall}
        currentStorage={script.data?.storage}
        disabled={actionsBusy}
      />
      <Stack direction="row" sx={{ gap: 1, flexWrap: 'wrap' }}>
        <Button
          variant="outlined"
          disabled={actionsBusy}
          onClick={() => {
            setDebugAt(undefined);
            void simulate();
          }}
        >
          {bundled ? `Simulate bundle (${whatIf.bundle.length})` : 'Simulate'}
        </Button>
        <Button disabled={actionsBusy} onClick={() => open('json')}>
          Raw JSON
        </Button>
        <Button disabled={actionsBusy} onClick={() => open('michelson')}>
          Michelson
        </Button>
        <Button disabled={actionsBusy} onClick={() => open('cli')}>
          Command line
        </Button>
        <Button variant="contained" disabled={actionsBusy} onClick={() => void send()}>
          Send with wallet
        </Button>
      </Stack>
      {error ? (
        <Alert severity="error" role="alert">
          {error}
        </Alert>
      ) : null}
      <InjectionAlert injection={injection} />
      {entrypoint.typedef.length > 0 ? (
        <TypedefPanel typedef={entrypoint.typedef} title="Parameter type" />
      ) : null}
      <EntrypointDialogs
        dialog={dialog}
        onClose={() => setDialog(null)}
        network={network}
        address={address}
        params={params}
        cliSource={settings.source || session.wallet?.address || ''}
        amount={amount}
        simulation={simulation}
        code={script.data?.code}
        simulated={simulated}
        simulatedAt={simulatedAt}
        whatIfRun={whatIfRun}
        copyLink={copyLink}
        debugAt={debugAt}
        onRerunAtHead={() => {
          setDialog(null);
          setDebugAt(undefined);
          void simulate();
        }}
      />
      {session.dialogs}
    </Stack>
  );
}
