#!/usr/bin/env node
/**
 * The `michelscope` command: composition root only (configuration → packages). No domain logic here.
 *
 *   michelscope start                       everything in one process (default for `npm start`)
 *   michelscope api                         API + web app only (read replicas; indexers run elsewhere)
 *   michelscope indexer --network NAME      one network's indexer
 *   michelscope sandbox [--port 8732]       the local chain alone, as a node RPC
 *   michelscope migrate                     apply database migrations and exit
 */
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, StartupError } from './config';
import { runApi, runIndexer, runMigrate, runSandbox, runStart } from './commands';

const USAGE = `usage: michelscope <start|api|indexer --network NAME|sandbox [--port N]|migrate>`;

async function main(argv: string[]): Promise<void> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { network: { type: 'string' }, port: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  const command = positionals[0] ?? 'start';
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const config = loadConfig();
  switch (command) {
    case 'start':
      return runStart(config);
    case 'api':
      return runApi(config);
    case 'indexer':
      if (!values.network) throw new ConfigError('indexer needs --network NAME');
      return runIndexer(config, values.network);
    case 'sandbox':
      return runSandbox(config, values.port ? Number(values.port) : 8732);
    case 'migrate':
      return runMigrate(config);
    default:
      throw new ConfigError(`unknown command "${command}"\n${USAGE}`);
  }
}

main(process.argv.slice(2)).catch((err: unknown) => {
  const message = err instanceof Error ? err.message : String(err);
  console.error(err instanceof StartupError ? `michelscope: ${message}` : err);
  process.exit(1);
});
