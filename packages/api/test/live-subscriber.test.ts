import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { Subscriber } from '../src/live/subscriber';

/** A connection's response: what the page receives, in order. */
function connection() {
  const received: string[] = [];
  const res = Object.assign(new EventEmitter(), {
    writableLength: 0,
    writableEnded: false,
    write: (text: string) => received.push(text.trim()),
    end: () => undefined,
    destroy: () => undefined,
  });
  const sub = new Subscriber(
    'sandboxnet',
    '127.0.0.1',
    new Set(['tz1']),
    new Set(),
    new Set(),
    res as unknown as ServerResponse,
    () => undefined,
  );
  return { sub, received };
}

describe('a live connection that resumes from a level', () => {
  it("does not get a level twice when the level's notice comes after the replay read it", () => {
    const { sub, received } = connection();
    // queued during the replay: level 8 (replayed) and 10 (after it)
    sub.send('block 8', 8);
    sub.send('block 10', 10);
    sub.write('replay 8..9');
    sub.replayed(9);
    // the notice of level 9 arrives late (the database had it when the replay read it)
    sub.send('block 9', 9);
    sub.send('block 11', 11);
    sub.send('pending', -1);
    expect(received).toEqual(['replay 8..9', 'block 10', 'block 11', 'pending']);
  });

  it('gets the levels again after a reorg took them back, and the reset itself', () => {
    const { sub, received } = connection();
    sub.replayed(10);
    sub.send('reset to 8', 8, true);
    sub.send('block 9 (other)', 9);
    sub.send('block 10 (other)', 10);
    expect(received).toEqual(['reset to 8', 'block 9 (other)', 'block 10 (other)']);
  });

  it('is told of a reorg that came during its replay', () => {
    const { sub, received } = connection();
    sub.send('reset to 5', 5, true);
    sub.replayed(7);
    sub.send('block 6 (other)', 6);
    expect(received).toEqual(['reset to 5', 'block 6 (other)']);
  });
});
