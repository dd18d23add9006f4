import { useQuery } from '@tanstack/react-query';
import { fetchResource } from '../../api/resources';
import { formatNumber } from '../../shared/format/format';

async function rpcNumber(
  name: 'usedSpace' | 'paidSpace',
  at: { network: string; address: string },
  signal: AbortSignal,
): Promise<number | null> {
  const body = await fetchResource(name, at, { signal });
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
      const [used, paid] = await Promise.all([
        rpcNumber('usedSpace', { network, address }, signal),
        rpcNumber('paidSpace', { network, address }, signal),
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
