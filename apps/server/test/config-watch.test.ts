import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config';

const withFile = (json: unknown) => {
  const cwd = mkdtempSync(path.join(os.tmpdir(), 'ms-config-'));
  writeFileSync(path.join(cwd, 'michelscope.config.json'), JSON.stringify(json));
  return cwd;
};

describe('the watch configuration (issue 39)', () => {
  it('defaults to no private targets, 20 rules a token, 10,000 in all, retries from 10 s', () => {
    expect(loadConfig({}, withFile({})).watch).toEqual({
      allowPrivateTargets: false,
      maxRulesPerToken: 20,
      maxRulesTotal: 10_000,
      backoffBaseMs: 10_000,
    });
  });

  it('reads watch.allow_private_targets, the limits and retry_base_ms', () => {
    const cwd = withFile({
      watch: {
        allow_private_targets: true,
        max_rules_per_token: 3,
        max_rules_total: 50,
        retry_base_ms: 1000,
      },
    });
    expect(loadConfig({}, cwd).watch).toEqual({
      allowPrivateTargets: true,
      maxRulesPerToken: 3,
      maxRulesTotal: 50,
      backoffBaseMs: 1000,
    });
  });

  it('refuses bad values and unknown keys', () => {
    expect(() => loadConfig({}, withFile({ watch: { max_rules_total: 0 } }))).toThrow(
      'watch.max_rules_total must be a whole number ≥ 1',
    );
    expect(() => loadConfig({}, withFile({ watch: { retry_base_ms: 5 } }))).toThrow('watch.retry_base_ms');
    expect(() => loadConfig({}, withFile({ watch: { allow_private: true } }))).toThrow(
      'unknown key "watch.allow_private"',
    );
    expect(() => loadConfig({}, withFile({ watch: { allow_private_targets: 'yes' } }))).toThrow(
      '"watch.allow_private_targets"',
    );
  });
});

describe('the verify configuration (issue 38)', () => {
  it('defaults to 20 s a compile and 10 submissions in 10 minutes, and reads both', () => {
    expect(loadConfig({}, withFile({})).verify).toEqual({
      compileTimeoutMs: 20_000,
      submissionsPer10Minutes: 10,
    });
    const cwd = withFile({ verify: { compile_timeout_ms: 4000, submissions_per_10_minutes: 3 } });
    expect(loadConfig({}, cwd).verify).toEqual({ compileTimeoutMs: 4000, submissionsPer10Minutes: 3 });
  });

  it('refuses bad values and unknown keys', () => {
    expect(() => loadConfig({}, withFile({ verify: { compile_timeout_ms: 10 } }))).toThrow(
      'verify.compile_timeout_ms must be a whole number from 1000 to 300000',
    );
    expect(() => loadConfig({}, withFile({ verify: { submissions_per_10_minutes: 0 } }))).toThrow(
      'verify.submissions_per_10_minutes must be a whole number ≥ 1',
    );
    expect(() => loadConfig({}, withFile({ verify: { timeout: 1 } }))).toThrow(
      'unknown key "verify.timeout"',
    );
  });
});
