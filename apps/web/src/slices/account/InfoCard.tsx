import type { ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { smartRollupQuery } from '../../api/account-api';
import { AddressEntity } from '../../shared/entities/AddressEntity';
import { capitalise } from '../../shared/entities/explorer-links';
import { formatNumber, formatTez, formatTime } from '../../shared/format/format';
import { ContractStorageSize } from './ContractStorageSize';
import type { ContractPageData } from '../contract/useContractPage';

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box sx={{ display: 'flex', gap: 2, py: 0.5, flexWrap: 'wrap' }}>
      <Typography component="dt" variant="body2" color="text.secondary" sx={{ minWidth: 150 }}>
        {label}
      </Typography>
      <Box component="dd" sx={{ m: 0, minWidth: 0, overflowWrap: 'anywhere' }}>
        {children}
      </Box>
    </Box>
  );
}

/** Kernel bytes as a hex dump, 16 bytes per row with offsets. */
export function hexDump(hex: string): string[] {
  const bytes = hex.match(/../g) ?? [];
  const rows: string[] = [];
  for (let i = 0; i < bytes.length; i += 16) {
    rows.push(`${i.toString(16).padStart(8, '0')}  ${bytes.slice(i, i + 16).join(' ')}`);
  }
  return rows;
}

function RollupRows({ network, address }: { network: string; address: string }) {
  const rollup = useQuery(smartRollupQuery(network, address));
  if (!rollup.data) return rollup.isPending ? <Skeleton height={80} /> : null;
  const r = rollup.data;
  return (
    <>
      <Row label="Level">{formatNumber(r.level)}</Row>
      <Row label="Genesis commitment">
        <Box component="span" sx={{ fontFamily: 'monospace' }}>
          {r.genesis_commitment_hash}
        </Box>
      </Row>
      <Row label="PVM kind">{r.pvm_kind}</Row>
      <Row label="Type">
        <Box component="span" sx={{ fontFamily: 'monospace' }}>
          {r.type.map((t) => `${t.name} ${t.type ?? ''}`).join('; ')}
        </Box>
      </Row>
      <Row label="Kernel">
        <Box
          component="pre"
          aria-label="Kernel"
          sx={{ m: 0, fontSize: 12, maxHeight: 240, overflow: 'auto' }}
        >
          {hexDump(r.kernel).join('\n')}
        </Box>
      </Row>
    </>
  );
}

/** The info card of the operations tab: common rows, plus contract or smart-rollup rows. */
export function InfoCard({ data }: { data: ContractPageData }) {
  const { network, address, account, contract } = data;
  return (
    <Paper variant="outlined" sx={{ p: 2 }} component="section" aria-label="Account info">
      <Box component="dl" sx={{ m: 0 }}>
        <Row label="Address">
          <AddressEntity network={network} address={address} full copy noLink />
        </Row>
        <Row label="Network">{capitalise(network)}</Row>
        <Row label="Last active">{account ? formatTime(account.last_action) : <Skeleton width={80} />}</Row>
        <Row label="Balance">{account ? formatTez(account.balance) : <Skeleton width={80} />}</Row>
        {contract ? (
          <>
            {contract.manager ? (
              <Row label="Deployed by">
                <AddressEntity network={network} address={contract.manager} />
              </Row>
            ) : null}
            {contract.delegate ? (
              <Row label="Delegated to">
                <AddressEntity network={network} address={contract.delegate} />
              </Row>
            ) : null}
            <Row label="Storage used / paid">
              <ContractStorageSize network={network} address={address} />
            </Row>
          </>
        ) : null}
        {account?.account_type === 'smart_rollup' || address.startsWith('sr1') ? (
          <RollupRows network={network} address={address} />
        ) : null}
      </Box>
    </Paper>
  );
}
