// @vitest-environment jsdom
import { dehydrate, QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';
import { createAppQueryClient } from './providers';
import { SSR_DATA_ID, seedFromServerPage } from './ssr-markup';

function pageData(json: string) {
  const element = document.createElement('script');
  element.type = 'application/json';
  element.id = SSR_DATA_ID;
  element.textContent = json;
  document.body.append(element);
}

afterEach(() => document.getElementById(SSR_DATA_ID)?.remove());

describe("seeding the app's queries from the server's page", () => {
  it('starts the query client with the answers the page was rendered from, fresh: no request', async () => {
    const server = new QueryClient();
    const opg = { pages: [[{ hash: 'ooX', level: 7 }]], pageParams: [0] };
    server.setQueryData(['opg', 'sandboxnet', 'KT1'], opg);
    server.setQueryData(['contract', 'sandboxnet', 'KT1'], { balance: '12', alias: 'A <b>' });
    pageData(JSON.stringify(dehydrate(server)));

    const client = createAppQueryClient(() => undefined);
    seedFromServerPage(client);
    expect(client.getQueryData(['opg', 'sandboxnet', 'KT1'])).toEqual(opg);
    expect(client.getQueryData(['contract', 'sandboxnet', 'KT1'])).toEqual({ balance: '12', alias: 'A <b>' });
    expect(document.getElementById(SSR_DATA_ID)).toBeNull();
    // the route loader's prefetch finds it fresh and does not ask the API
    let asked = 0;
    await client.prefetchQuery({
      queryKey: ['contract', 'sandboxnet', 'KT1'],
      queryFn: () => {
        asked += 1;
        return {};
      },
      staleTime: 10_000,
    });
    expect(asked).toBe(0);
  });

  it('ignores malformed data and the queries that had no answer', () => {
    pageData('{"queries": [');
    const client = createAppQueryClient(() => undefined);
    seedFromServerPage(client);
    expect(client.getQueryCache().getAll()).toHaveLength(0);

    pageData(
      JSON.stringify({
        queries: [
          { queryKey: ['failed'], queryHash: '["failed"]', state: { status: 'error', data: undefined } },
          { queryKey: 'not-a-key', queryHash: 'x', state: { status: 'success', data: 1 } },
        ],
      }),
    );
    seedFromServerPage(client);
    expect(client.getQueryCache().getAll()).toHaveLength(0);
  });
});
