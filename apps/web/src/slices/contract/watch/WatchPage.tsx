import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { WatchDelivery, WatchRule, WatchRuleCreated } from '@michelscope/api-types';
import { ApiError } from '../../../api/client';
import { entrypointsQuery } from '../../../api/workspace-api';
import {
  createWatchRule,
  deleteWatchRule,
  watchDeliveriesQuery,
  watchRulesQuery,
} from '../../../api/watch-api';
import { CopyButton } from '../../../shared/clipboard/CopyButton';
import { OperationHashEntity } from '../../../shared/entities/OperationHashEntity';
import { formatNumber } from '../../../shared/format/format';
import { ContractFrame } from '../ContractFrame';
import type { ContractPageData } from '../useContractPage';
import {
  buildRule,
  CONDITION_KINDS,
  conditionText,
  EMPTY_FORM,
  type AmountUnit,
  type CallStatus,
  type ConditionKind,
  type FormErrors,
  type WatchForm,
} from './watch-form';
import { newDeliveryIds, readWatchToken, TOKEN_PATTERN, writeWatchToken } from './watch-token';

interface At {
  network: string;
  address: string;
}

const NETWORK = /^[a-z0-9_-]{1,40}$/;
const ADDRESS = /^(tz[1-4]|KT1|sr1)[1-9A-HJ-NP-Za-km-z]{33}$/;

/** Which form field an API 400 message is about (its words name the field), else null (shown in an alert). */
function fieldOfMessage(message: string): keyof WatchForm | null {
  const m = message.toLowerCase();
  if (/\burl\b|webhook|host|address .*(private|loopback)|resolve/.test(m)) return 'url';
  if (/amount_gte is above|amount_lte/.test(m)) return 'amountMax';
  if (/amount_gte/.test(m)) return 'amountMin';
  if (/sender/.test(m)) return 'sender';
  return null;
}

function RuleForm({
  at,
  token,
  onCreated,
}: {
  at: At;
  token: string | null;
  onCreated: (c: WatchRuleCreated) => void;
}) {
  const [form, setForm] = useState<WatchForm>(EMPTY_FORM);
  const [errors, setErrors] = useState<FormErrors>({});
  const [apiError, setApiError] = useState<string | null>(null);
  const entrypoints = useQuery(entrypointsQuery(at.network, at.address));
  const create = useMutation({
    mutationFn: (rule: Parameters<typeof createWatchRule>[0]) => createWatchRule(rule, token),
    // the form stays as it was: a similar rule is one change away
    onSuccess: onCreated,
    onError: (error) => {
      const message = error instanceof Error ? error.message : String(error);
      const field = error instanceof ApiError && error.status === 400 ? fieldOfMessage(message) : null;
      if (field) setErrors({ [field]: message });
      else setApiError(message);
    },
  });
  const set =
    <K extends keyof WatchForm>(key: K) =>
    (value: WatchForm[K]) => {
      setForm((f) => ({ ...f, [key]: value }));
      setErrors((e) => ({ ...e, [key]: undefined }));
    };
  const text = (
    key: keyof WatchForm,
    label: string,
    helper?: ReactNode,
    extra: { slotProps?: object } = {},
  ) => (
    <TextField
      id={`watch-${key}`}
      label={label}
      size="small"
      fullWidth
      value={form[key]}
      onChange={(e) => set(key)(e.target.value)}
      error={errors[key] !== undefined}
      helperText={errors[key] ?? helper}
      {...extra}
    />
  );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setApiError(null);
    const built = buildRule(form, at);
    if ('errors' in built) {
      setErrors(built.errors);
      return;
    }
    setErrors({});
    create.mutate(built.rule);
  };
  const unit = form.amountUnit;
  const thresholds = (
    <>
      {text('above', 'Rises to or above', 'A whole number; leave empty for none')}
      {text('below', 'Falls to or below', 'A whole number; leave empty for none')}
    </>
  );
  return (
    <Paper
      variant="outlined"
      component="form"
      aria-labelledby="watch-new-title"
      noValidate
      onSubmit={submit}
      sx={{ p: 2 }}
    >
      <Typography id="watch-new-title" variant="h6" component="h2" sx={{ mb: 1.5 }}>
        New rule
      </Typography>
      <Stack spacing={2} sx={{ maxWidth: 560 }}>
        <TextField
          select
          id="watch-kind"
          label="What to watch"
          size="small"
          value={form.kind}
          onChange={(e) => set('kind')(e.target.value as ConditionKind)}
        >
          {CONDITION_KINDS.map((k) => (
            <MenuItem key={k.kind} value={k.kind}>
              {k.label}
            </MenuItem>
          ))}
        </TextField>
        {form.kind === 'call' ? (
          <>
            <TextField
              select
              id="watch-entrypoint"
              label="Entrypoint"
              size="small"
              // 'Any entrypoint' ('') shows as a value, not as an empty field
              slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
              value={form.entrypoint}
              onChange={(e) => set('entrypoint')(e.target.value)}
              helperText={
                entrypoints.isError
                  ? 'The entrypoints could not be read: any entrypoint is watched'
                  : undefined
              }
            >
              <MenuItem value="">Any entrypoint</MenuItem>
              {(entrypoints.data ?? []).map((ep) => (
                <MenuItem key={ep.name} value={ep.name}>
                  {ep.name}
                </MenuItem>
              ))}
            </TextField>
            {text('sender', 'Sender', 'Optional: only calls sent by this address')}
            <TextField
              select
              id="watch-amountUnit"
              label="Amount unit"
              size="small"
              value={unit}
              onChange={(e) => set('amountUnit')(e.target.value as AmountUnit)}
              helperText="1 tez = 1,000,000 mutez; sent to the server in mutez"
            >
              <MenuItem value="tez">tez</MenuItem>
              <MenuItem value="mutez">mutez</MenuItem>
            </TextField>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              {text('amountMin', `Minimum amount (${unit})`, 'Optional', {
                slotProps: { htmlInput: { inputMode: 'decimal' } },
              })}
              {text('amountMax', `Maximum amount (${unit})`, 'Optional', {
                slotProps: { htmlInput: { inputMode: 'decimal' } },
              })}
            </Stack>
            <TextField
              select
              id="watch-status"
              label="Status"
              size="small"
              value={form.status}
              onChange={(e) => set('status')(e.target.value as CallStatus)}
              helperText="Failed includes calls backtracked or skipped after a failure"
            >
              <MenuItem value="applied">Applied</MenuItem>
              <MenuItem value="failed">Failed</MenuItem>
              <MenuItem value="any">Any</MenuItem>
            </TextField>
          </>
        ) : null}
        {form.kind === 'event'
          ? text('eventTag', 'Event tag', 'Optional: leave empty for every event')
          : null}
        {form.kind === 'storage' ? (
          <>
            {text('path', 'Storage field path', 'Dot-separated, e.g. total_supply or config.fee')}
            {thresholds}
          </>
        ) : null}
        {form.kind === 'big_map' ? (
          <>
            {text('bigMap', 'Big map', 'Its field name in the storage, or its id')}
            {text('bigMapKey', 'Key', 'Optional: the key as a plain value; leave empty for any key')}
            {thresholds}
          </>
        ) : null}
        {form.kind === 'token_transfer' ? (
          <>
            {text('tokenAmount', 'Minimum token amount', 'In the token’s smallest unit; empty: any amount', {
              slotProps: { htmlInput: { inputMode: 'numeric' } },
            })}
            {text('tokenId', 'Token ID', 'Optional (FA2): only this token')}
          </>
        ) : null}
        {form.kind === 'origination' ? (
          <Typography variant="body2" color="text.secondary">
            Every contract this contract originates (a factory), applied.
          </Typography>
        ) : null}
        {text(
          'url',
          'Webhook URL',
          'https://… The server POSTs each match there, signed with the rule’s secret',
          {
            slotProps: { htmlInput: { inputMode: 'url', spellCheck: false } },
          },
        )}
        {apiError !== null ? (
          <Alert severity="error" role="alert">
            {apiError}
          </Alert>
        ) : null}
        <Box>
          <Button type="submit" variant="contained" disabled={create.isPending}>
            Create rule
          </Button>
        </Box>
      </Stack>
    </Paper>
  );
}

/** The new rule's management token and secret, shown once. */
function SecretsBox({ created, onDone }: { created: WatchRuleCreated; onDone: () => void }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => ref.current?.focus(), []);
  const row = (label: string, value: string, copyLabel: string) => (
    <Box>
      <Typography variant="subtitle2" component="p">
        {label}
      </Typography>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5, minWidth: 0 }}>
        <Box
          component="code"
          data-testid={`watch-${copyLabel === 'Copy token' ? 'token' : 'secret'}`}
          sx={{ fontFamily: 'monospace', fontSize: 13, overflowWrap: 'anywhere', minWidth: 0 }}
        >
          {value}
        </Box>
        <CopyButton text={value} label={copyLabel} />
      </Box>
    </Box>
  );
  return (
    <Alert
      ref={ref}
      tabIndex={-1}
      severity="warning"
      role="region"
      aria-label="Management token and secret"
      sx={{ '& .MuiAlert-message': { minWidth: 0, width: '100%' } }}
    >
      <Stack spacing={1}>
        <Typography component="h2" variant="subtitle1" sx={{ fontWeight: 600 }}>
          Rule {created.rule.id} created: save these now
        </Typography>
        <Typography variant="body2">
          They are not shown again. The management token lists and deletes your rules (kept in this browser
          too); the secret signs each delivery (X-Michelscope-Signature: sha256=HMAC-SHA256 of the body).
        </Typography>
        {row('Management token', created.token, 'Copy token')}
        {row('Signing secret', created.secret, 'Copy secret')}
        <Box>
          <Button size="small" variant="outlined" onClick={onDone}>
            I have saved them
          </Button>
        </Box>
      </Stack>
    </Alert>
  );
}

/** The Notifications API, when this browser has it. */
const notifications = (): typeof Notification | null =>
  typeof globalThis.Notification === 'function' ? globalThis.Notification : null;

function DeliveryLog({ token, rule, notify }: { token: string; rule: WatchRule; notify: boolean }) {
  const log = useQuery(watchDeliveriesQuery(token, rule.id));
  const seen = useRef<Set<string> | null>(null);
  const data = log.data;
  useEffect(() => {
    if (!data) return;
    if (seen.current !== null && notify) {
      const N = notifications();
      const fresh = newDeliveryIds(seen.current, data);
      if (N && N.permission === 'granted') {
        for (const id of fresh) {
          const d = data.find((x) => x.id === id)!;
          new N(`Watch rule ${rule.id} matched`, {
            body: `${rule.network} level ${d.level}${d.operation_hash ? `, ${d.operation_hash}` : ''}: ${d.status}`,
            tag: `watch-${id}`,
          });
        }
      }
    }
    seen.current = new Set(data.map((d) => d.id));
  }, [data, notify, rule.id, rule.network]);
  const label = `Delivery log of ${rule.id}`;
  if (log.isPending) return <LinearProgress aria-label={`Loading the ${label.toLowerCase()}`} />;
  if (log.isError)
    return (
      <Typography variant="body2" color="error" role="status">
        The delivery log could not be read: {log.error.message}
      </Typography>
    );
  if (log.data.length === 0)
    return (
      <Typography variant="body2" color="text.secondary" aria-label={label}>
        No deliveries yet.
      </Typography>
    );
  const linkNetwork = NETWORK.test(rule.network) ? rule.network : null;
  return (
    <Box sx={{ overflowX: 'auto' }} role="region" aria-label={`${label} (scrolls)`} tabIndex={0}>
      <Table size="small" aria-label={label} sx={{ minWidth: 640 }}>
        <TableHead>
          <TableRow>
            <TableCell>Status</TableCell>
            <TableCell align="right">HTTP</TableCell>
            <TableCell align="right">Attempts</TableCell>
            <TableCell align="right">Latency</TableCell>
            <TableCell>Time</TableCell>
            <TableCell align="right">Level</TableCell>
            <TableCell>Operation</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {log.data.map((d) => (
            <DeliveryRow key={d.id} d={d} network={linkNetwork} />
          ))}
        </TableBody>
      </Table>
    </Box>
  );
}

function DeliveryRow({ d, network }: { d: WatchDelivery; network: string | null }) {
  const time = d.delivered_at ?? d.created_at;
  return (
    <TableRow data-delivery={d.id}>
      <TableCell>
        {d.status}
        {d.last_error ? (
          <Typography
            variant="caption"
            component="div"
            color="text.secondary"
            sx={{ overflowWrap: 'anywhere' }}
          >
            {d.last_error}
          </Typography>
        ) : null}
        {d.status === 'pending' && d.next_attempt_at ? (
          <Typography variant="caption" component="div" color="text.secondary">
            next try {new Date(d.next_attempt_at).toLocaleTimeString()}
          </Typography>
        ) : null}
      </TableCell>
      <TableCell align="right">{d.last_status_code ?? '—'}</TableCell>
      <TableCell align="right">{d.attempts}</TableCell>
      <TableCell align="right">{d.latency_ms === null ? '—' : `${formatNumber(d.latency_ms)} ms`}</TableCell>
      <TableCell>
        <Box component="time" dateTime={time} sx={{ whiteSpace: 'nowrap' }}>
          {new Date(time).toLocaleString()}
        </Box>
      </TableCell>
      <TableCell align="right">{formatNumber(d.level)}</TableCell>
      <TableCell>
        {d.operation_hash === null ? (
          '—'
        ) : network ? (
          <OperationHashEntity network={network} hash={d.operation_hash} />
        ) : (
          d.operation_hash
        )}
      </TableCell>
    </TableRow>
  );
}

function NotifyToggle({ ruleId, on, setOn }: { ruleId: string; on: boolean; setOn: (on: boolean) => void }) {
  const [message, setMessage] = useState<string | null>(null);
  const toggle = async (checked: boolean) => {
    setMessage(null);
    if (!checked) return setOn(false);
    const N = notifications();
    if (!N) return setMessage('This browser does not support notifications.');
    let permission = N.permission;
    if (permission === 'default') {
      try {
        permission = await N.requestPermission();
      } catch {
        permission = 'denied';
      }
    }
    if (permission !== 'granted')
      return setMessage(
        'Notifications are blocked for this site: allow them in the browser’s site settings.',
      );
    setOn(true);
  };
  return (
    <Box>
      <FormControlLabel
        control={
          <Checkbox
            size="small"
            checked={on}
            onChange={(e) => void toggle(e.target.checked)}
            slotProps={{ input: { 'aria-describedby': `watch-notify-help-${ruleId}` } }}
          />
        }
        label="Notify me in this browser"
      />
      <Typography
        id={`watch-notify-help-${ruleId}`}
        variant="caption"
        color={message ? 'warning.main' : 'text.secondary'}
        component="p"
        role="status"
      >
        {message ??
          (on
            ? 'A notification shows for each new delivery while this page is open.'
            : 'While this page is open.')}
      </Typography>
    </Box>
  );
}

function RuleItem({ token, rule, at }: { token: string; rule: WatchRule; at: At }) {
  const client = useQueryClient();
  const [notify, setNotify] = useState(false);
  const remove = useMutation({
    mutationFn: () => deleteWatchRule(token, rule.id),
    onSuccess: () => client.invalidateQueries({ queryKey: ['watchRules', { token }] }),
  });
  const here = rule.network === at.network && rule.address === at.address;
  const target =
    !here && NETWORK.test(rule.network) && ADDRESS.test(rule.address) ? (
      <Link
        component={RouterLink}
        to={`/${rule.network}/${rule.address}/watch`}
        underline="hover"
        sx={{ fontFamily: 'monospace' }}
      >
        {rule.address}
      </Link>
    ) : (
      <Box component="span" sx={{ fontFamily: 'monospace' }}>
        {here ? 'this contract' : rule.address}
      </Box>
    );
  return (
    <Paper
      component="li"
      variant="outlined"
      data-rule={rule.id}
      aria-labelledby={`watch-rule-${rule.id}`}
      sx={{ p: 1.5, listStyle: 'none' }}
    >
      <Stack spacing={1}>
        <Box
          sx={{
            display: 'flex',
            flexWrap: 'wrap',
            alignItems: 'flex-start',
            gap: 1,
            justifyContent: 'space-between',
          }}
        >
          <Box sx={{ minWidth: 0 }}>
            <Typography
              id={`watch-rule-${rule.id}`}
              component="h3"
              variant="subtitle1"
              sx={{ overflowWrap: 'anywhere' }}
            >
              {conditionText(rule.condition)}
            </Typography>
            <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
              {rule.id} · {rule.network} · {target} · {rule.enabled ? 'enabled' : 'disabled'}
            </Typography>
            <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
              Webhook: <code>{rule.url}</code>
            </Typography>
          </Box>
          <Button
            size="small"
            color="error"
            variant="outlined"
            aria-label={`Delete rule ${rule.id}`}
            disabled={remove.isPending}
            onClick={() => remove.mutate()}
          >
            Delete
          </Button>
        </Box>
        {remove.isError ? (
          <Alert severity="error" role="alert">
            {remove.error.message}
          </Alert>
        ) : null}
        <NotifyToggle ruleId={rule.id} on={notify} setOn={setNotify} />
        <Typography component="h4" variant="subtitle2">
          Delivery log
        </Typography>
        <DeliveryLog token={token} rule={rule} notify={notify} />
      </Stack>
    </Paper>
  );
}

function RulesList({ token, at, onForget }: { token: string; at: At; onForget: () => void }) {
  const rules = useQuery(watchRulesQuery(token));
  if (rules.isPending) return <LinearProgress aria-label="Loading your rules" />;
  if (rules.isError)
    return (
      <Alert
        severity="error"
        role="alert"
        action={
          <Button color="inherit" size="small" onClick={onForget}>
            Forget token
          </Button>
        }
      >
        Your rules could not be read: {rules.error.message}
      </Alert>
    );
  if (rules.data.length === 0)
    return (
      <Typography color="text.secondary" role="status">
        This token holds no rules.
      </Typography>
    );
  return (
    <Stack component="ul" spacing={1.5} aria-label="Your rules" sx={{ p: 0, m: 0 }}>
      {rules.data.map((r) => (
        <RuleItem key={r.id} token={token} rule={r} at={at} />
      ))}
    </Stack>
  );
}

function TokenControls({ token, onToken }: { token: string | null; onToken: (t: string | null) => void }) {
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const t = value.trim();
    if (!TOKEN_PATTERN.test(t)) return setError('A management token: msw_ and 43 letters, digits, - or _');
    setError(null);
    setValue('');
    onToken(t);
  };
  return (
    <Box
      component="form"
      noValidate
      onSubmit={submit}
      aria-label="Use a management token"
      sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'flex-start' }}
    >
      <TextField
        id="watch-token-input"
        label="Management token"
        size="small"
        value={value}
        onChange={(e) => setValue(e.target.value)}
        error={error !== null}
        helperText={error ?? 'Paste a token to see its rules'}
        slotProps={{ htmlInput: { spellCheck: false, autoComplete: 'off' } }}
        sx={{ flex: '1 1 260px', maxWidth: 560 }}
      />
      <Button type="submit" variant="outlined">
        Show rules
      </Button>
      {token ? (
        <Button variant="text" onClick={() => onToken(null)}>
          Forget token
        </Button>
      ) : null}
    </Box>
  );
}

/** The Watch tab (issue 39): create a webhook rule on this contract, and the rules of this browser's token. */
export function WatchTab({ data }: { data: ContractPageData }) {
  const at = { network: data.network, address: data.address };
  const client = useQueryClient();
  const [token, setTokenState] = useState<string | null>(() => readWatchToken());
  const [created, setCreated] = useState<WatchRuleCreated | null>(null);
  const setToken = (t: string | null) => {
    writeWatchToken(t);
    setTokenState(t);
  };
  const rules = useQuery({ ...watchRulesQuery(token ?? ''), enabled: token !== null });
  // a token whose rules were all deleted cannot make more (the API answers 401): a new one is made instead
  const sendToken = token !== null && (rules.data?.length ?? 0) > 0 ? token : null;
  return (
    <Stack spacing={2}>
      <Typography variant="body2" color="text.secondary">
        Watch this contract: for each new block the server checks your rules and POSTs every match to your
        webhook, signed with the rule’s secret, retrying for 24 hours until it answers 2xx.
      </Typography>
      <RuleForm
        at={at}
        token={sendToken}
        onCreated={(c) => {
          setCreated(c);
          setToken(c.token);
          void client.invalidateQueries({ queryKey: ['watchRules', { token: c.token }] });
        }}
      />
      {created ? <SecretsBox created={created} onDone={() => setCreated(null)} /> : null}
      <Box component="section" aria-labelledby="watch-rules-title">
        <Typography id="watch-rules-title" variant="h6" component="h2" sx={{ mb: 1 }}>
          Your rules
        </Typography>
        <Stack spacing={1.5}>
          {token ? (
            <RulesList token={token} at={at} onForget={() => setToken(null)} />
          ) : (
            <Typography variant="body2" color="text.secondary">
              No management token in this browser yet: create a rule, or paste a token.
            </Typography>
          )}
          <TokenControls token={token} onToken={setToken} />
        </Stack>
      </Box>
    </Stack>
  );
}

/** /{network}/{address}/watch */
export function WatchPage() {
  return <ContractFrame tab="watch">{(data) => <WatchTab data={data} />}</ContractFrame>;
}
