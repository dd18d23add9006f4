import { useEffect, useRef, useState } from 'react';
import { Link as RouterLink, useLocation } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Step from '@mui/material/Step';
import StepContent from '@mui/material/StepContent';
import StepLabel from '@mui/material/StepLabel';
import Stepper from '@mui/material/Stepper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useAppConfig } from '../../shared/config/useAppConfig';
import { TypedefPanel } from '../../shared/micheline/TypedefPanel';
import { useWallet } from '../../features/wallet/useWallet';
import { useWalletResetOnOpen } from '../../features/wallet/wallet-reset';
import { WalletMenu } from '../../features/wallet/WalletMenu';
import { InjectionAlert, useInjection } from '../../features/wallet/useInjection';
import { SchemaForm, type FormData, type SchemaFormHandle } from '../contract/interact/SchemaForm';
import { formModel } from '../contract/interact/form-schema';
import { SANDBOX_ACCOUNTS, SANDBOX_NETWORK } from '../../features/wallet/sandbox-accounts';
import { DEPLOY_MESSAGES, fileError, parseCode, storageValue, type ParsedCode } from './deploy-logic';
import { simulateOrigination, type OriginationSimulation } from './simulate-origination';
import { OriginationSimulationResult } from './OriginationSimulationResult';
import { DebugScriptCall, type ScriptCall } from './DebugScriptCall';
import type { SharedDeploy } from '../contract/interact/share-link';
import { linkOf, useOpenedShare } from '../contract/interact/useOpenedShare';
import { CopyLinkButton } from '../../shared/clipboard/CopyLinkButton';
import type { DebugAt } from '../debugger/debug-target';

/** /deploy: 'Upload code' then 'Configure contract's initial storage', originated with the wallet. */
export function DeployPage() {
  // 'The wallet connection is reset when the form opens.'
  useWalletResetOnOpen();
  const config = useAppConfig();
  const [step, setStep] = useState(0);
  const [file, setFile] = useState<File | null>(null);
  const [uploadError, setUploadError] = useState<string | null>(null);
  const [parsed, setParsed] = useState<ParsedCode | null>(null);
  const [network, setNetwork] = useState(
    config.networks.includes(SANDBOX_NETWORK) ? SANDBOX_NETWORK : (config.networks[0] ?? ''),
  );
  const [formData, setFormData] = useState<FormData>({});
  const [balance, setBalance] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [contract, setContract] = useState<string | null>(null);
  const [simulation, setSimulation] = useState<OriginationSimulation | null>(null);
  const formRef = useRef<SchemaFormHandle>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const session = useWallet(network);
  const injection = useInjection(network);
  // the script's text as uploaded (what a share link carries)
  const [source, setSource] = useState('');

  // a share link (#s=… or #share=…), read once: the script, its storage form and balance fill the page, then
  // its simulation runs, or its call is debugged, once
  const { hash } = useLocation();
  const shared = useOpenedShare(hash, 'deploy');
  const [openError, setOpenError] = useState<string | null>(null);
  const [pendingShare, setPendingShare] = useState(true);
  const [openedCall, setOpenedCall] = useState<{ call: ScriptCall; debug?: DebugAt | undefined }>();
  const [runSimulation, setRunSimulation] = useState(false);
  // a link's level: its simulation and its debugged call run at that block (the level and time they ran at)
  const [pinned, setPinned] = useState<number | undefined>(undefined);
  useEffect(() => {
    const s = shared.state;
    if (!pendingShare || !s) return;
    setPendingShare(false);
    if (!config.networks.includes(s.network))
      return setOpenError(`this Michelscope has no network ${s.network.slice(0, 32)}`);
    let result: ParsedCode;
    try {
      result = parseCode(s.code);
    } catch (e) {
      return setOpenError(`its script does not parse: ${e instanceof Error ? e.message : String(e)}`);
    }
    setNetwork(s.network);
    setSource(s.code);
    setParsed(result);
    setFormData(s.storage);
    setBalance(s.balance);
    setPinned(s.level);
    setStep(1);
    if (s.show === 'debug' && s.call) setOpenedCall({ call: s.call, debug: s.debug });
    else setRunSimulation(true);
  }, [shared.state, pendingShare, config.networks]);
  useEffect(() => {
    if (!runSimulation || !parsed) return;
    setRunSimulation(false);
    void simulate(pinned);
    // runs once, in the render after a link filled the form (and its level)
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [runSimulation, parsed]);
  const shareError = shared.error ?? openError;
  /** The page's state as a share link keeps it (with the level the simulation shown ran at). */
  const deployState = (): SharedDeploy => ({
    v: 1,
    kind: 'deploy',
    network,
    code: source,
    storage: formData,
    balance,
    show: 'simulation',
    ...(simulation?.at ? { level: simulation.at.level } : {}),
  });

  const upload = async () => {
    const bad = fileError(file);
    if (bad || !file) return setUploadError(bad);
    try {
      const text = await file.text();
      const result = parseCode(text);
      setSource(text);
      setParsed(result);
      setFormData(formModel(result.schema, result.model));
      setUploadError(null);
      setStep(1);
    } catch (e) {
      setUploadError(`${DEPLOY_MESSAGES.uploadFailed}${e instanceof Error ? ` ${e.message}` : ''}`);
    }
  };

  /** The checked form: the initial storage, or null after showing why it cannot be used. */
  const checkedStorage = () => {
    if (!parsed) return null;
    setError(null);
    setContract(null);
    setSimulation(null);
    if (formRef.current && !formRef.current.validateForm()) return null;
    if (balance.trim() && !/^\d+$/.test(balance.trim())) {
      setError('Balance: Only digits are allowed');
      return null;
    }
    try {
      return storageValue(parsed.storageType, formData);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
      return null;
    }
  };

  /** Simulates the origination at the head, or at `level` (a link's). */
  const simulate = async (level?: number) => {
    const storage = checkedStorage();
    if (!parsed || !storage) return;
    await injection.run(async () => {
      // simulating signs nothing: any funded account is a source (the wallet's, or the sandbox's first
      // bootstrap account); only a public network without a connected wallet asks for one
      const source =
        session.wallet?.address ??
        (network === SANDBOX_NETWORK ? SANDBOX_ACCOUNTS[0]!.pkh : (await session.requestWallet()).address);
      setSimulation(
        await simulateOrigination({
          network,
          source,
          code: parsed.code,
          storage,
          balance: balance.trim() || '0',
          level,
        }),
      );
      return null;
    }, setError);
  };
  /** 'Simulate' and 'Rerun at head': at the head, the link's level forgotten (its Debug runs at the head too). */
  const simulateAtHead = () => {
    setPinned(undefined);
    void simulate();
  };

  const deploy = async () => {
    const storage = checkedStorage();
    if (!parsed || !storage) return;
    await injection.run(async () => {
      const wallet = await session.requestWallet();
      const res = await wallet.originate({
        kind: 'origination',
        script: { code: parsed.code, storage },
        balance: balance.trim() || '0',
      });
      setContract(res.contractAddress ?? null);
      return { opHash: res.opHash, broadcast: wallet.kind === 'beacon' };
    }, setError);
  };

  return (
    <Box sx={{ py: 2 }}>
      <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center', mb: 2 }}>
        <Typography variant="h5" component="h1">
          Deploy a contract
        </Typography>
        <WalletMenu session={session} />
      </Stack>
      {shareError ? (
        <Alert severity="error" sx={{ mb: 2 }} aria-label="Shared simulation">
          This shared simulation cannot be opened: {shareError}.
        </Alert>
      ) : null}
      <Stepper activeStep={step} orientation="vertical">
        <Step>
          <StepLabel>Upload code</StepLabel>
          <StepContent>
            <Stack spacing={1} sx={{ alignItems: 'flex-start' }}>
              <Button variant="outlined" onClick={() => fileInput.current?.click()}>
                Choose file
              </Button>
              <input
                ref={fileInput}
                hidden
                type="file"
                accept=".tz,.txt,text/plain"
                aria-label="Michelson code file"
                onChange={(e) => {
                  setFile(e.target.files?.[0] ?? null);
                  setUploadError(null);
                }}
              />
              <Typography variant="body2">{file ? file.name : 'No file selected'}</Typography>
              <Typography variant="caption" color="text.secondary">
                {DEPLOY_MESSAGES.help}
              </Typography>
              {uploadError ? <Alert severity="error">{uploadError}</Alert> : null}
              <Button variant="contained" onClick={() => void upload()}>
                Continue
              </Button>
            </Stack>
          </StepContent>
        </Step>
        <Step>
          <StepLabel>Configure contract&apos;s initial storage</StepLabel>
          <StepContent>
            {parsed ? (
              <Stack spacing={2}>
                <TextField
                  select
                  size="small"
                  label="Network"
                  value={network}
                  onChange={(e) => setNetwork(e.target.value)}
                  sx={{ maxWidth: 240 }}
                >
                  {config.networks.map((n) => (
                    <MenuItem key={n} value={n}>
                      {n}
                    </MenuItem>
                  ))}
                </TextField>
                <Paper variant="outlined" sx={{ p: 2 }} component="section" aria-label="Initial storage">
                  <SchemaForm
                    headingLevel={2}
                    ref={formRef}
                    schema={parsed.schema}
                    formData={formData}
                    onChange={setFormData}
                  />
                </Paper>
                <TextField
                  size="small"
                  label="Balance (mutez)"
                  value={balance}
                  onChange={(e) => setBalance(e.target.value)}
                  sx={{ maxWidth: 240 }}
                />
                <TypedefPanel typedef={parsed.typedef} title="Storage type" />
                <Stack direction="row" spacing={1}>
                  <Button onClick={() => setStep(0)}>Back</Button>
                  <Button variant="outlined" disabled={injection.busy} onClick={simulateAtHead}>
                    Simulate
                  </Button>
                  <Button variant="contained" disabled={injection.busy} onClick={() => void deploy()}>
                    Deploy
                  </Button>
                </Stack>
                {simulation ? (
                  <section aria-label="Origination simulation">
                    <CopyLinkButton build={() => linkOf(deployState())} />
                    <OriginationSimulationResult result={simulation} onRerunAtHead={simulateAtHead} />
                  </section>
                ) : null}
                <DebugScriptCall
                  key={openedCall ? 'link' : 'form'}
                  network={network}
                  code={parsed.code}
                  storage={() => storageValue(parsed.storageType, formData)}
                  opened={openedCall}
                  level={pinned}
                  copyLink={(call, debug, level) =>
                    linkOf({
                      ...deployState(),
                      show: 'debug',
                      call,
                      debug,
                      ...(level !== undefined ? { level } : {}),
                    })
                  }
                />
                {error ? <Alert severity="error">{error}</Alert> : null}
                <InjectionAlert injection={injection} />
                {contract && injection.lastHash ? (
                  <Link component={RouterLink} to={`/${network}/${contract}`}>
                    Open contract {contract}
                  </Link>
                ) : null}
              </Stack>
            ) : null}
          </StepContent>
        </Step>
      </Stepper>
      {session.dialogs}
    </Box>
  );
}
