import { describe, expect, it, vi } from 'vitest';
import { createAppQueryClient } from './providers';

describe('createAppQueryClient', () => {
  it('reports a failed query to the snackbar unless the query is silent', async () => {
    const onError = vi.fn();
    const client = createAppQueryClient(onError);
    const fail = () => Promise.reject(new Error('Request failed with status code 502'));

    await client.fetchQuery({ queryKey: ['loud'], queryFn: fail, retry: false }).catch(() => undefined);
    expect(onError).toHaveBeenCalledWith('Request failed with status code 502');

    onError.mockClear();
    await client
      .fetchQuery({ queryKey: ['quiet'], queryFn: fail, retry: false, meta: { silent: true } })
      .catch(() => undefined);
    expect(onError).not.toHaveBeenCalled();
  });
});
