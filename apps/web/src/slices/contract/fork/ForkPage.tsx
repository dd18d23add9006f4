import { useEffect, useRef, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { runAction } from '../../../api/resources';
import { fetchStorageSchema, type FormSchema } from '../../../api/workspace-api';
import { TypedefPanel } from '../../../shared/micheline/TypedefPanel';
import { InjectionAlert, useInjection } from '../../../features/wallet/useInjection';
import { useWallet } from '../../../features/wallet/useWallet';
import { useWalletResetOnOpen } from '../../../features/wallet/wallet-reset';
import { WalletMenu } from '../../../features/wallet/WalletMenu';
import { ContractFrame } from '../ContractFrame';
import type { ContractPageData } from '../useContractPage';
import { SchemaForm, type FormData, type SchemaFormHandle } from '../interact/SchemaForm';
import { formModel } from '../interact/form-schema';
import { LoadingBlock } from '../../../shared/ui/LoadingBlock';

type FillType = 'empty' | 'current' | 'initial';

/**
 * What a 'current' form holds of the storage's big maps: each is filled with its current keys up to a bound;
 * one cut short says so ('N of M keys filled').
 */
export function BigMapsFilledNote({ schema }: { schema: FormSchema | null }) {
  const cut = (schema?.big_maps_filled ?? []).filter((b) => b.filled < b.total);
  if (cut.length === 0) return null;
  return (
    <Alert severity="info">
      {cut.map((b) => (
        <div key={b.ptr}>
          Big map {b.ptr}: {b.filled.toLocaleString('en-US')} of {b.total.toLocaleString('en-US')} keys filled
        </div>
      ))}
    </Alert>
  );
}

/** /{network}/{address}/fork */
export function ForkPage() {
  return <ContractFrame tab="fork">{(data) => <ForkTab data={data} />}</ContractFrame>;
}

/**
 * Fork: the storage form (fill types empty, current, initial), POST /v1/fork for code and storage, then an
 * origination with the wallet on the same network.
 */
function ForkTab({ data }: { data: ContractPageData }) {
  // 'The wallet connection is reset when the form opens.'
  useWalletResetOnOpen();
  const { network, address } = data;
  const [fillType, setFillType] = useState<FillType>('empty');
  const [schema, setSchema] = useState<FormSchema | null>(null);
  // the fill type whose storage is in the form: until the chosen one's arrives, Fork waits for it
  const [filled, setFilled] = useState<FillType | null>(null);
  const [formData, setFormData] = useState<FormData>({});
  const [formKey, setFormKey] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const [contract, setContract] = useState<string | null>(null);
  const formRef = useRef<SchemaFormHandle>(null);
  const session = useWallet(network);
  const injection = useInjection(network);

  // Changing the fill type refetches the storage schema; 'empty' resets the model.
  useEffect(() => {
    const controller = new AbortController();
    fetchStorageSchema(network, address, fillType, { signal: controller.signal })
      .then((s) => {
        setSchema(s);
        setFormData(formModel(s?.schema ?? null, s?.default_model));
        setFormKey((k) => k + 1);
        setFilled(fillType);
      })
      .catch((e: unknown) => {
        if (controller.signal.aborted) return;
        setError(e instanceof Error ? e.message : String(e));
        setFilled(fillType);
      });
    return () => controller.abort();
  }, [network, address, fillType]);

  const fork = async () => {
    setError(null);
    setContract(null);
    if (formRef.current && !formRef.current.validateForm()) return;
    await injection.run(async () => {
      const prepared = await runAction('fork', undefined, { network, address, storage: formData });
      const wallet = await session.requestWallet();
      const res = await wallet.originate({ kind: 'origination', script: prepared, balance: '0' });
      setContract(res.contractAddress ?? null);
      return { opHash: res.opHash, broadcast: wallet.kind === 'beacon' };
    }, setError);
  };

  return (
    <Stack spacing={2}>
      <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center' }}>
        <TextField
          select
          size="small"
          label="Fill type"
          value={fillType}
          onChange={(e) => setFillType(e.target.value as FillType)}
          sx={{ minWidth: 200 }}
        >
          <MenuItem value="empty">Empty</MenuItem>
          <MenuItem value="current">Current</MenuItem>
          <MenuItem value="initial">Initial</MenuItem>
        </TextField>
        <WalletMenu session={session} />
      </Stack>
      {fillType === 'current' && filled === 'current' ? <BigMapsFilledNote schema={schema} /> : null}
      {schema === null ? (
        <LoadingBlock height={160} label="Loading storage form" />
      ) : schema.schema ? (
        <Box component="section" aria-label="Storage" aria-busy={filled !== fillType}>
          {/* read-only until the chosen fill type's storage replaces it: what is typed meanwhile would be lost */}
          <SchemaForm
            headingLevel={2}
            key={formKey}
            ref={formRef}
            schema={schema.schema}
            formData={formData}
            onChange={setFormData}
            disabled={filled !== fillType}
          />
        </Box>
      ) : null}
      <Box>
        <Button
          variant="contained"
          disabled={injection.busy || schema === null || filled !== fillType}
          onClick={() => void fork()}
        >
          Fork
        </Button>
      </Box>
      {error ? <Alert severity="error">{error}</Alert> : null}
      <InjectionAlert injection={injection} />
      {contract && injection.lastHash ? (
        <Link component={RouterLink} to={`/${network}/${contract}`}>
          Open contract {contract}
        </Link>
      ) : null}
      {schema ? <TypedefPanel typedef={schema.typedef} title="Storage type" /> : null}
      {session.dialogs}
    </Stack>
  );
}
