import { describe, expect, it } from 'vitest';
import { ApiError, errorMessageFromBody, getJson } from './client';

const respond =
  (body: string, init: ResponseInit = {}): typeof fetch =>
  async () =>
    new Response(body, init);

describe('getJson', () => {
  it('requests /v1 + path and returns the parsed body', async () => {
    let requested = '';
    const fetchFn: typeof fetch = async (input) => {
      requested = input instanceof Request ? input.url : input.toString();
      return new Response('{"networks":["mainnet"]}', { status: 200 });
    };
    await expect(getJson('/config', { fetchFn })).resolves.toEqual({ networks: ['mainnet'] });
    expect(requested).toBe('/v1/config');
  });

  it("turns a non-2xx answer into an ApiError carrying the body's message and the status", async () => {
    const error = await getJson('/head', {
      fetchFn: respond('{"message":"Don\'t have an RPC endpoint for the oxfordnet"}', { status: 400 }),
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe("Don't have an RPC endpoint for the oxfordnet");
    expect((error as ApiError).status).toBe(400);
  });

  it('falls back to the status text, then to the status code, when the body has no message', async () => {
    await expect(
      getJson('/head', { fetchFn: respond('<html>oops</html>', { status: 502, statusText: 'Bad Gateway' }) }),
    ).rejects.toThrow('Bad Gateway');
    await expect(getJson('/head', { fetchFn: respond('', { status: 503 }) })).rejects.toThrow(
      'Request failed with status code 503',
    );
  });

  it('reports invalid JSON in a 200 answer as an error, not a crash', async () => {
    await expect(getJson('/head', { fetchFn: respond('not json', { status: 200 }) })).rejects.toThrow(
      'Invalid JSON in the response of /v1/head',
    );
  });

  it('gives up after the timeout with a clear message', async () => {
    const hanging: typeof fetch = (_input, init) =>
      new Promise((_resolve, reject) => {
        init?.signal?.addEventListener('abort', () => reject(init.signal?.reason as Error));
      });
    await expect(getJson('/head', { fetchFn: hanging, timeoutMs: 20 })).rejects.toThrow(
      'Request to /v1/head timed out after 0 s',
    );
  });

  it('passes a caller abort through unchanged (query cancellation)', async () => {
    const hanging: typeof fetch = (_input, init) =>
      new Promise((_resolve, reject) => {
        init?.signal?.addEventListener('abort', () => reject(init.signal?.reason as Error));
      });
    const controller = new AbortController();
    const pending = getJson('/head', { fetchFn: hanging, signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('reports a network failure as an ApiError with status 0', async () => {
    const failing: typeof fetch = async () => {
      throw new TypeError('fetch failed');
    };
    await expect(getJson('/config', { fetchFn: failing })).rejects.toMatchObject({
      status: 0,
      message: 'Network error while requesting /v1/config',
    });
  });
});

describe('errorMessageFromBody', () => {
  it('reads only a non-empty string message', () => {
    expect(errorMessageFromBody('{"message":"bad network"}')).toBe('bad network');
    expect(errorMessageFromBody('{"message":42}')).toBeNull();
    expect(errorMessageFromBody('{"message":"  "}')).toBeNull();
    expect(errorMessageFromBody('[]')).toBeNull();
    expect(errorMessageFromBody('null')).toBeNull();
  });
});
