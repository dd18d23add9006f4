import type { ConfigResponse } from '@michelscope/api-types';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ApiContext } from '../context';
import { ref } from '../schemas';

export const configRoutes: FastifyPluginAsyncTypebox<{ ctx: ApiContext }> = async (app, { ctx }) => {
  app.get(
    '/config',
    {
      schema: {
        summary: 'Front-end configuration',
        description:
          'Configured networks (mainnet first, then by name descending), their public RPC endpoints and UI flags.',
        tags: ['config'],
        response: { 200: ref('ConfigResponse'), 500: ref('ErrorBody') },
      },
    },
    async () => buildConfig(ctx),
  );
};

function buildConfig(ctx: ApiContext): ConfigResponse {
  const { options, networks } = ctx;
  return {
    networks: networks.names,
    rpc_endpoints: Object.fromEntries(networks.list.map((n) => [n.name, n.publicRpcUrl])),
    sentry_dsn: options.sentryDsn ?? '',
    oauth_enabled: false,
    ga_enabled: options.gaEnabled ?? false,
    sandbox_mode: options.sandboxMode ?? false,
    mempool_enabled: options.mempoolEnabled ?? false,
    ipfs_gateway: options.ipfsGateway ?? 'https://ipfs.io/ipfs',
    network_info: networks.list.map((n) => ({
      name: n.name,
      rpc_endpoint: n.publicRpcUrl,
      stats_enabled: n.statsEnabled,
      ...(n.explorerUrl ? { explorer_url: n.explorerUrl } : {}),
    })),
  };
}
