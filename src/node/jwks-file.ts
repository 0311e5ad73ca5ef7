import { open } from 'node:fs/promises';
import { A2AError } from '../errors.js';
import { readJwks, type Jwks } from '../sdk/agent/trust/jwks.js';

/** The largest JWKS file read. */
const MAX_BYTES = 1024 * 1024;

/**
 * Reads a JWKS (RFC 7517) from a file, for the `trust` option's `jwks`:
 * `createA2A({ trust: { jwks: await readJwksFile('keys.json') } })`. A file that cannot be read, is
 * larger than 1 MiB or holds no JWKS is a `config` error naming the file and what is wrong (never a key).
 */
export async function readJwksFile(path: string): Promise<Jwks> {
  const fail = (what: string, cause?: unknown) =>
    new A2AError({ kind: 'config', operation: 'options', message: `the JWKS file ${path} ${what}`, cause });
  let text: string;
  try {
    const file = await open(path, 'r');
    try {
      const { size } = await file.stat();
      if (size > MAX_BYTES) throw fail(`is larger than ${MAX_BYTES} bytes`);
      text = await file.readFile('utf8');
    } finally {
      await file.close();
    }
  } catch (error) {
    if (error instanceof A2AError) throw error;
    throw fail(`could not be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`, error);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (cause) {
    throw fail('is not JSON', cause);
  }
  try {
    readJwks(json);
  } catch (cause) {
    throw fail(`is ${(cause as Error).message}`, cause);
  }
  return json as Jwks;
}
