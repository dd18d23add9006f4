import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { startStandaloneSandbox } from '../src/index';
import { tempDir } from './helpers';

let node: { url: string; close(): Promise<void> } | undefined;
afterEach(async () => {
  await node?.close();
  node = undefined;
});

describe('/monitor/heads/main', () => {
  it('streams the current head, then each new head, and ends on close', async () => {
    node = await startStandaloneSandbox({ dataDir: await tempDir(), blockTimeMs: 200, port: 0 });
    const heads: Array<{ hash: string; level: number; predecessor: string }> = [];
    let ended = false;
    await new Promise<void>((resolve, reject) => {
      const req = http.get(`${node!.url}/monitor/heads/main`, (res) => {
        let buf = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          buf += chunk;
          let nl: number;
          while ((nl = buf.indexOf('\n')) >= 0) {
            heads.push(JSON.parse(buf.slice(0, nl)));
            buf = buf.slice(nl + 1);
          }
          if (heads.length >= 3) resolve();
        });
        res.on('end', () => {
          ended = true;
        });
      });
      req.on('error', reject);
      setTimeout(() => reject(new Error('no heads streamed')), 5000);
    });
    expect(heads[1]!.level).toBe(heads[0]!.level + 1);
    expect(heads[2]!.predecessor).toBe(heads[1]!.hash);
    await node.close();
    node = undefined;
    await new Promise((r) => setTimeout(r, 50));
    expect(ended).toBe(true);
  });
});
