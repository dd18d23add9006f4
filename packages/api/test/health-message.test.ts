/**
 * What heads and GET /v1/health tell anyone of a failure (issue 34): the cause, without the server's folders
 * or a database URL's credentials.
 */
import { describe, expect, it } from 'vitest';
import { publicMessage } from '../src/services/health';

describe('a failure as the public reads it', () => {
  it("keeps the cause and a folder's last name, not the server's paths", () => {
    expect(
      publicMessage(
        "the sandbox's storage folder /srv/michelscope/data/sandbox is gone: ENOENT: no such file or directory, stat '/srv/michelscope/data/sandbox'",
      ),
    ).toBe(
      "the sandbox's storage folder …/sandbox is gone: ENOENT: no such file or directory, stat '…/sandbox'",
    );
    expect(publicMessage('could not write /var/lib/ms/pglite/base/5/1259: ENOSPC')).toBe(
      'could not write …/1259: ENOSPC',
    );
  });

  it("drops a URL's credentials and keeps the rest of the text as it was", () => {
    expect(publicMessage('connect to postgres://ms:s3cret@db.internal:5432/ms failed: ECONNREFUSED')).toBe(
      'connect to postgres://…@db.internal:5432/ms failed: ECONNREFUSED',
    );
    expect(publicMessage('GET http://127.0.0.1:9/chains/main/blocks/head/header: fetch failed')).toBe(
      'GET http://127.0.0.1:9/chains/main/blocks/head/header: fetch failed',
    );
    expect(publicMessage('terminating connection due to administrator command')).toBe(
      'terminating connection due to administrator command',
    );
  });
});
