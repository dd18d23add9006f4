import { expect, it } from 'vitest';
import { collect, createClient, type LiveEvent } from '../src/index';

/** A fetch answering one event stream, sent in awkward chunks. */
function streamingFetch(chunks: string[], seen: Request[] = []): typeof fetch {
  return async (input, init) => {
    seen.push(new Request(input, init));
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const c of chunks) controller.enqueue(new TextEncoder().encode(c));
        controller.close();
      },
    });
    return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
  };
}

it('live(): parses the server-sent events into typed events, skipping comments and retry lines', async () => {
  const head = {
    network: 'mainnet',
    level: 7,
    hash: 'BLx',
    time: '2026-01-10T12:00:00Z',
    protocol: 'P',
    synced: true,
  };
  const ops = { network: 'mainnet', address: 'KT1x', level: 7, hashes: ['oo1'] };
  const text =
    'retry: 3000\n\n' +
    `event: operations\ndata: ${JSON.stringify(ops)}\n\n` +
    ': heartbeat\n\n' +
    `event: head\nid: 7\ndata: ${JSON.stringify(head)}\n\n`;
  const seen: Request[] = [];
  const client = createClient({
    baseUrl: 'http://api.example/',
    fetch: streamingFetch([text.slice(0, 5), text.slice(5, 40), text.slice(40)], seen),
  });
  const events: LiveEvent[] = await collect(
    client.live('mainnet', { address: ['KT1x', 'tz1y'], big_map: [3], lastEventId: '6' }),
  );
  expect(events).toEqual([
    { type: 'operations', data: ops },
    { type: 'head', id: '7', data: head },
  ]);
  const first = events[1]!;
  if (first.type === 'head') expect(first.data.level).toBe(7);
  expect(seen[0]!.url).toBe('http://api.example/v1/live/mainnet?address=KT1x&address=tz1y&big_map=3');
  expect(seen[0]!.headers.get('last-event-id')).toBe('6');
});

it('live(): leaving the loop closes the stream', async () => {
  let cancelled = false;
  const client = createClient({
    baseUrl: 'http://api.example',
    fetch: async () =>
      new Response(
        new ReadableStream<Uint8Array>({
          pull(controller) {
            controller.enqueue(
              new TextEncoder().encode('event: reset\ndata: {"network":"n","level":1,"reason":"reorg"}\n\n'),
            );
          },
          cancel() {
            cancelled = true;
          },
        }),
      ),
  });
  for await (const e of client.live('n')) {
    expect(e).toMatchObject({ type: 'reset', data: { reason: 'reorg' } });
    break;
  }
  expect(cancelled).toBe(true);
});
