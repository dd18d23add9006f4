/** Loads every fixture contract, parses its storage and replays each recorded call's parameter. */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fixtureChain } from '../test/fixture-chain';
import { loadScript, runContract } from '../src/index';

const dir = path.resolve(import.meta.dirname, '../../../../shared/fixtures/contracts');
let loaded = 0,
  total = 0,
  calls = 0,
  ok = 0,
  rejected = 0,
  other = 0;
for (const addr of readdirSync(dir).filter((d) => d.startsWith('KT1'))) {
  const d = path.join(dir, addr);
  if (!existsSync(path.join(d, 'code.json'))) continue;
  total++;
  const code = JSON.parse(readFileSync(path.join(d, 'code.json'), 'utf8'));
  try {
    loadScript(code);
    loaded++;
  } catch (e) {
    console.log(`LOAD ${addr}: ${(e as Error).message.slice(0, 200)}`);
    continue;
  }
  if (!existsSync(path.join(d, 'calls')) || !existsSync(path.join(d, 'storage.json'))) continue;
  const storage = JSON.parse(readFileSync(path.join(d, 'storage.json'), 'utf8'));
  for (const f of readdirSync(path.join(d, 'calls'))) {
    const call = JSON.parse(readFileSync(path.join(d, 'calls', f), 'utf8'));
    calls++;
    const r = runContract({
      script: code,
      storage,
      parameter: call.parameters.value,
      entrypoint: call.parameters.entrypoint,
      self: addr,
      chain: fixtureChain(d, code, storage),
      amount: 0n,
    });
    if (r.ok) ok++;
    else if (r.error.kind === 'script_rejected') {
      rejected++;
      if (process.env.SHOW)
        console.log(`REJ ${addr} ${f}: ${JSON.stringify(r.error.data.with).slice(0, 120)}`);
    } else {
      other++;
      console.log(`CALL ${addr} ${f}: ${r.error.kind} ${r.error.message.slice(0, 200)}`);
    }
  }
}
console.log(
  `loaded ${loaded}/${total}; calls ${calls}: ok ${ok}, rejected ${rejected}, other errors ${other}`,
);
