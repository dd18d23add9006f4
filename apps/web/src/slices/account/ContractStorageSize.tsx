import { useQuery } from '@tanstack/react-query';
import { requestJson } from '../../api/client';
import { formatNumber } from '../../shared/format/format';

const enc = encodeURIComponent;

async function rpcNumber(url: string, signal: AbortSignal): Promise<number | null> {
  const { body } = await requestJson(url, { signal });
  const n = typeof body === 'string' ? Number(body) : typeof body === 'number' ? body : NaN;
  return Number.isFinite(n) ? n : null;
}

/**
 * Storage used and paid in bytes, from the node RPC (through the server's pass-through). Failures are
 * only logged (workspace spec §8): the cell then shows a dash.
 */
export function ContractStorageSize({ network, address }: { network: string; address: string }) {
  const query = useQuery({
    queryKey: ['contract_storage_size', network, address] as const,
    meta: { silent: true },
    retry: false,
    staleTime: 60_000,
    queryFn: async ({ signal }) => {
      const root = `/rpc/${enc(network)}/chains/main/blocks/head/context/contracts/${enc(address)}`;
      const [used, paid] = await Promise.all([
        rpcNumber(`${root}/storage/used_space`, signal),
        rpcNumber(`${root}/storage/paid_space`, signal),
      ]);
      return { used, paid };
    },
  });
  if (query.isError) console.warn(`Storage size of ${address}: ${query.error.message}`);
  if (!query.data) return <span>{query.isPending ? '…' : '—'}</span>;
  const { used, paid } = query.data;
  return (
    <span>
      {used === null ? '—' : formatNumber(used)} / {paid === null ? '—' : formatNumber(paid)} bytes
    </span>
  );
}
