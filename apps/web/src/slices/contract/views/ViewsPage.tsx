import { useEffect, useMemo, useRef, useState } from 'react';
import { LazyDebugger } from '../../debugger/LazyDebugger';
import { Link as RouterLink, useLocation, useNavigate, useParams, useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { MiguelNode, StateLevel, ViewRequest, ViewSchema } from '@michelscope/api-types';
import { viewsQuery } from '../../../api/contract-api';
import { ViewExecutionError } from '../../../api/workspace-api';
import { MiguelTree } from '../../../shared/micheline/MiguelTree';
import { EmptyState } from '../../../shared/ui/EmptyState';
import { ContractFrame } from '../ContractFrame';
import type { ContractPageData } from '../useContractPage';
import { SchemaForm, type FormData, type SchemaFormHandle } from '../interact/SchemaForm';
import type { SharedView } from '../interact/share-link';
import { linkOf, useOpenedShare } from '../interact/useOpenedShare';
import { CopyLinkButton } from '../../../shared/clipboard/CopyLinkButton';
import { SimulatedAt } from '../interact/SimulatedAt';
import type { DebugAt } from '../../debugger/debug-target';
import { errorTitle, hasParameters, NO_IMPLEMENTATION_PARAMETERS, NO_PARAMETERS } from './view-logic';
import {
  executeView,
  metadataViews,
  OFF_CHAIN_ERROR,
  offChainViewsQuery,
  type OffChainView,
} from './offchain-views';
import { LoadingBlock } from '../../../shared/ui/LoadingBlock';

const viewPath = (base: string, v: ViewSchema) =>
  `${base}/${encodeURIComponent(v.name)}${v.kind === 'off-chain' ? '?kind=off-chain' : ''}`;

/** /{network}/{address}/views/{view?} */
export function ViewsPage() {
  return <ContractFrame tab="views">{(data) => <ViewsTab data={data} />}</ContractFrame>;
}

function ViewsTab({ data }: { data: ContractPageData }) {
  const { network, address } = data;
  const params = useParams();
  const navigate = useNavigate();
  const views = useQuery(viewsQuery(network, address));
  const declared = useMemo(() => metadataViews(data.metadata?.metadata), [data.metadata]);
  const offChain = useQuery(offChainViewsQuery(network, address, declared));
  const list = useMemo<(ViewSchema | OffChainView)[]>(
    () => [...(views.data ?? []), ...(offChain.data ?? [])],
    [views.data, offChain.data],
  );
  // Off-chain views carry ?kind=off-chain: a contract may have an on-chain view of the same name.
  const [search] = useSearchParams();
  const kind = search.get('kind') === 'off-chain' ? 'off-chain' : 'on-chain';
  const selected =
    list.find((v) => v.name === params.view && v.kind === kind) ??
    list.find((v) => v.name === params.view) ??
    null;
  const base = `/${network}/${address}/views`;
  const pending =
    views.isPending || (declared.length > 0 && offChain.isPending) || data.metadata === undefined;
  const loadError = views.error ?? offChain.error;
  // a share link (#s=… or #share=…), read once when the tab opens; its view runs once
  const { hash } = useLocation();
  const shared = useOpenedShare(hash, 'view');
  const [pendingShare, setPendingShare] = useState(true);
  const share = shared.state;
  const sharedView = share && list.find((v) => v.name === share.view.name && v.kind === share.view.kind);
  const shareError =
    shared.error ??
    (share && (share.network !== network || share.address !== address)
      ? `it is a view of ${share.address} on ${share.network}`
      : share && !pending && !sharedView
        ? `this contract has no ${share.view.kind} view '${share.view.name.slice(0, 64)}'`
        : undefined);
  const runShare = pendingShare && share && !shareError && sharedView ? share : undefined;

  useEffect(() => {
    if (pending || !list.length) return;
    // a link's view is the one opened
    if (runShare && sharedView && selected !== sharedView)
      void navigate(`${viewPath(base, sharedView)}${hash}`, { replace: true });
    else if (!selected) void navigate(viewPath(base, list[0]!), { replace: true });
  }, [pending, list, selected, base, navigate, runShare, sharedView, hash]);

  if (pending || shared.pending) return <LoadingBlock height={200} label="Loading views" />;
  const alert = (
    <>
      {loadError ? (
        <Alert severity="error" sx={{ mb: 2 }}>
          {OFF_CHAIN_ERROR(loadError.message)}
        </Alert>
      ) : null}
      {shareError ? (
        <Alert severity="error" sx={{ mb: 2 }} aria-label="Shared simulation">
          This shared simulation cannot be opened: {shareError}.
        </Alert>
      ) : null}
    </>
  );
  if (list.length === 0)
    return (
      <>
        {alert}
        <EmptyState title="Nothing found" text="This contract has no views." />
      </>
    );
  return (
    <>
      {alert}
      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: '280px 1fr' }, gap: 2 }}>
        <Paper variant="outlined">
          <List aria-label="Views" dense>
            {list.map((v) => (
              <ListItem key={`${v.kind}:${v.name}`} disablePadding>
                <ListItemButton
                  component={RouterLink}
                  to={viewPath(base, v)}
                  replace
                  selected={v === selected}
                >
                  <ListItemText
                    primary={v.name}
                    secondary={v.description || null}
                    slotProps={{ primary: { sx: { fontFamily: 'monospace' } } }}
                  />
                  <Chip size="small" label={v.kind} />
                </ListItemButton>
              </ListItem>
            ))}
          </List>
        </Paper>
        <Paper variant="outlined" sx={{ p: 2, minWidth: 0 }}>
          {selected ? (
            <ViewPanel
              key={`${selected.kind}:${selected.name}`}
              network={network}
              address={address}
              view={selected}
              opened={runShare && sharedView === selected ? runShare : undefined}
              onOpened={() => setPendingShare(false)}
            />
          ) : null}
        </Paper>
      </Box>
    </>
  );
}

function ViewPanel(props: {
  network: string;
  address: string;
  view: ViewSchema | OffChainView;
  /** a share link of this view: its input fills the form and it runs once, when the panel opens */
  opened?: SharedView | undefined;
  onOpened?: () => void;
}) {
  const { network, address, view, opened } = props;
  const formRef = useRef<SchemaFormHandle>(null);
  const [formData, setFormData] = useState<FormData>(() => opened?.data ?? {});
  // the inputs of the result shown ('Copy link'), and where a link opens the debugger (once)
  const [shared, setShared] = useState<SharedView | null>(null);
  const [debugAt, setDebugAt] = useState<DebugAt | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<MiguelNode[] | null | undefined>(undefined);
  // the level the result was read at (the head then, or a link's pinned level), and the head's move since
  const [at, setAt] = useState<StateLevel | undefined>(undefined);
  const [failure, setFailure] = useState<{ title: string; message: string } | null>(null);
  // the executed request, for 'Debug' (the same view and input, step by step)
  const [ran, setRan] = useState<ViewRequest | null>(null);
  const [debugging, setDebugging] = useState(false);
  const withParams = hasParameters(view.schema);

  /**
   * Runs the view with the form's input at the head, or against the state at `atLevel` (a link pinned to the
   * level it ran at); the link and 'Debug' keep the level the result was read at.
   */
  const execute = async (atLevel?: number) => {
    if (withParams && formRef.current && !formRef.current.validateForm()) return;
    setBusy(true);
    const request: ViewRequest = {
      kind: view.kind === 'off-chain' ? 'off-chain' : 'on-chain',
      name: view.name,
      implementation: view.implementation,
      data: withParams ? formData : {},
      ...('source' in view ? { view: view.source } : {}),
      ...(atLevel !== undefined ? { at_level: atLevel } : {}),
    };
    const link = (level: number | undefined): SharedView => ({
      v: 1,
      kind: 'view',
      network,
      address,
      view: {
        kind: request.kind,
        name: view.name,
        ...(view.implementation !== undefined ? { implementation: view.implementation } : {}),
      },
      data: withParams ? formData : {},
      ...(level !== undefined ? { level } : {}),
    });
    setRan(request);
    setShared(link(atLevel));
    setAt(undefined);
    // where it ran (a result's or a failure's): the link and 'Debug' keep that level
    const ranAt = (where: StateLevel | undefined) => {
      if (where) {
        setRan({ ...request, at_level: where.level });
        setShared(link(where.level));
      }
      setAt(where);
    };
    try {
      const run = await executeView(network, address, request);
      ranAt(run.at);
      setResult(run.result);
    } catch (e) {
      if (e instanceof ViewExecutionError) {
        ranAt(e.at);
        setFailure({ title: errorTitle(e.statusText, e.status), message: e.message });
      } else setFailure({ title: 'Error', message: e instanceof Error ? e.message : String(e) });
    } finally {
      setBusy(false);
    }
  };

  // a link opens: its view runs once (with the link's input), then its debugger opens where it stood
  const rerun = useRef(opened);
  useEffect(() => {
    const s = rerun.current;
    if (!s) return;
    rerun.current = undefined;
    props.onOpened?.();
    setDebugAt(s.debug);
    // the debugger opens once the result's dialog is there: a modal opened later hides the earlier ones
    void execute(s.level).then(() => s.debug && setDebugging(true));
    // runs once, when the panel opens with a link; execute reads this render's form (the link's)
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const copyLink = (debug?: DebugAt) =>
    shared
      ? linkOf({ ...shared, ...(debug ? { debug } : {}) })
      : Promise.reject(new Error('nothing run yet'));

  /**
   * 'Rerun at head': the same view and input at the head; a result's dialog shows the new answer in place, a
   * failure's closes (`dismiss`) for the new answer's dialog.
   */
  const rerunAtHead = (dismiss?: () => void) => () => {
    setDebugAt(undefined);
    dismiss?.();
    void execute();
  };

  const nodes = result ?? [];
  const debugButton = ran ? (
    <Button variant="outlined" onClick={() => setDebugging(true)}>
      Debug
    </Button>
  ) : null;
  return (
    <Stack spacing={2}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        <Typography variant="h6" component="h2" sx={{ fontFamily: 'monospace' }}>
          {view.name}
        </Typography>
        <Chip size="small" label={view.kind} />
      </Stack>
      {view.description ? <Typography variant="body2">{view.description}</Typography> : null}
      {view.error ? <Alert severity="warning">{view.error}</Alert> : null}
      {withParams && view.schema ? (
        <Box component="section" aria-label="Parameters">
          <SchemaForm ref={formRef} schema={view.schema} formData={formData} onChange={setFormData} />
        </Box>
      ) : (
        <Typography color="text.secondary">
          {view.kind === 'off-chain' ? NO_IMPLEMENTATION_PARAMETERS : NO_PARAMETERS}
        </Typography>
      )}
      <Box>
        <Button variant="contained" disabled={busy} onClick={() => void execute()}>
          Execute
        </Button>
      </Box>
      <Dialog
        open={result !== undefined}
        onClose={() => setResult(undefined)}
        aria-labelledby="view-result"
        fullWidth
        maxWidth="md"
      >
        <DialogTitle id="view-result">View result</DialogTitle>
        <DialogContent>
          <SimulatedAt at={at} onRerunAtHead={rerunAtHead()} />
          <CopyLinkButton build={() => copyLink()} />
          {nodes.length ? (
            <MiguelTree roots={nodes} label="Result" network={network} />
          ) : (
            <Typography>None</Typography>
          )}
        </DialogContent>
        <DialogActions>
          {debugButton}
          <Button onClick={() => setResult(undefined)}>Close</Button>
        </DialogActions>
      </Dialog>
      <Dialog
        open={failure !== null}
        onClose={() => setFailure(null)}
        aria-labelledby="view-error"
        fullWidth
        maxWidth="sm"
      >
        <DialogTitle id="view-error">{failure?.title}</DialogTitle>
        <DialogContent>
          {/* a failure (FAILWITH…) says where it ran as a result does, and reruns at the head the same way */}
          <SimulatedAt at={at} onRerunAtHead={rerunAtHead(() => setFailure(null))} />
          <CopyLinkButton build={() => copyLink()} />
          <Typography sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>{failure?.message}</Typography>
        </DialogContent>
        <DialogActions>
          {debugButton}
          <Button onClick={() => setFailure(null)}>Close</Button>
        </DialogActions>
      </Dialog>
      {ran && debugging ? (
        <LazyDebugger
          onClose={() => {
            setDebugging(false);
            setDebugAt(undefined);
          }}
          target={{ network, address, request: { name: view.name }, view: ran }}
          initial={debugAt}
          copyLink={copyLink}
        />
      ) : null}
    </Stack>
  );
}
