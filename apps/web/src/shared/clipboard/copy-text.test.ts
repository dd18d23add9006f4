import { describe, expect, it } from 'vitest';
import { COPY_FAILED, COPY_OK, COPY_TRUNCATED, copyText } from './copy-text';

describe('copyText', () => {
  it('writes the text and reports success', async () => {
    let written = '';
    const outcome = await copyText('KT1abc', { writeText: async (t) => void (written = t) });
    expect(written).toBe('KT1abc');
    expect(outcome).toEqual({ severity: 'success', message: COPY_OK });
  });
  it('warns that a very long text might be truncated', async () => {
    const outcome = await copyText('x'.repeat(100_001), { writeText: async () => undefined });
    expect(outcome).toEqual({ severity: 'warning', message: COPY_TRUNCATED });
  });
  it('reports a refused write or a missing clipboard as a failure', async () => {
    const refused = await copyText('a', {
      writeText: async () => {
        throw new DOMException('denied', 'NotAllowedError');
      },
    });
    expect(refused).toEqual({ severity: 'error', message: COPY_FAILED });
    expect(await copyText('a', undefined)).toEqual({ severity: 'error', message: COPY_FAILED });
  });
});
