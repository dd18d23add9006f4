/**
 * The CLI's start-up failures: each is one line on stderr (no stack), and a busy port is found before a new
 * chain is created and seeded.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

function cli(args: string[], env: Record<string, string>) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'apps/server/src/main.ts', ...args],
      { cwd: root, env: { ...process.env, ...env }, timeout: 60_000 },
      (err, stdout, stderr) =>
        resolve({ code: err ? ((err as { code?: number }).code ?? null) : 0, stdout, stderr }),
    );
  });
}

describe.concurrent('start-up errors', () => {
  it('refuses a port in use with one line, before creating the chain', async () => {
    const busy = net.createServer();
    await new Promise<void>((r) => busy.listen({ port: 0, host: '0.0.0.0' }, r));
    const port = (busy.address() as net.AddressInfo).port;
    const dataDir = path.join(mkdtempSync(path.join(os.tmpdir(), 'ms-port-')), 'data');
    try {
      const r = await cli(['start'], { PORT: String(port), DATA_DIR: dataDir, DATABASE_URL: '' });
      expect(r.code).toBe(1);
      expect(r.stderr).toBe(
        `michelscope: port ${port} is already in use: stop what listens there or set PORT to another port\n`,
      );
      expect(r.stdout).toBe('');
      expect(existsSync(path.join(dataDir, 'sandbox'))).toBe(false);
    } finally {
      busy.close();
    }
  }, 90_000);

  it('prints a database connection failure as one line', async () => {
    const r = await cli(['migrate'], { DATABASE_URL: 'postgres://127.0.0.1:1/none' });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      'michelscope: cannot connect to PostgreSQL at postgres://127.0.0.1:1/none: connect ECONNREFUSED 127.0.0.1:1\n',
    );
  }, 90_000);

  it('refuses a DATABASE_URL of another database up front', async () => {
    const r = await cli(['migrate'], { DATABASE_URL: 'mysql://root@127.0.0.1:3306/x' });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      'michelscope: DATABASE_URL must be a postgres:// or postgresql:// URL, not mysql://\n',
    );
  }, 90_000);
});
