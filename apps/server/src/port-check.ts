import net from 'node:net';
import { StartupError } from './config-file';

function portError(err: NodeJS.ErrnoException, port: number): Error {
  if (err.code === 'EADDRINUSE')
    return new StartupError(
      `port ${port} is already in use: stop what listens there or set PORT to another port`,
    );
  if (err.code === 'EACCES')
    return new StartupError(`port ${port} needs privileges: set PORT to a port above 1023`);
  if (err.code === 'EADDRNOTAVAIL')
    return new StartupError(`HOST is not an address of this machine (port ${port})`);
  return err;
}

/**
 * Fails with one line when `port` cannot be listened on, before anything (a new chain, its seed) is created.
 * Port 0 (any free port) always passes.
 */
export async function assertPortFree(port: number, host: string): Promise<void> {
  if (port === 0) return;
  await new Promise<void>((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', (err: NodeJS.ErrnoException) => reject(portError(err, port)));
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve()));
  });
}

/** `listen()` with the same one-line errors (a port taken between the check and the listen). */
export async function listenOn(
  app: { listen(o: { port: number; host: string }): Promise<string> },
  port: number,
  host: string,
): Promise<string> {
  try {
    return await app.listen({ port, host });
  } catch (err) {
    throw portError(err as NodeJS.ErrnoException, port);
  }
}
