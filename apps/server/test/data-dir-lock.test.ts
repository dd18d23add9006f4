import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { lockDataDir } from '../src/data-dir-lock';

describe('lockDataDir', () => {
  it('refuses a second owner of the same DATA_DIR and frees it on release', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'ms-lock-'));
    // Another live process (our parent) holds the directory.
    writeFileSync(path.join(dir, 'michelscope.pid'), String(process.ppid));
    expect(() => lockDataDir(dir)).toThrow(/in use by another Michelscope process/);
  });

  it('takes over a lock left by a process that is gone', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'ms-lock-'));
    writeFileSync(path.join(dir, 'michelscope.pid'), '999999999');
    const release = lockDataDir(dir);
    expect(existsSync(path.join(dir, 'michelscope.pid'))).toBe(true);
    release();
    expect(existsSync(path.join(dir, 'michelscope.pid'))).toBe(false);
  });
});
