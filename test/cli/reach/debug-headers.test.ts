/**
 * `--debug` shows a header's value only for the headers that carry no credential; these attacks put
 * a credential in one of those: a card whose API key scheme names `User-Agent`, `ETag` or
 * `Last-Modified` as its header (the key is refused there, so nothing shows and nothing goes), and a
 * person's `-H` or `--svc-param` of such a name (it goes to the agent, and shows `[redacted]`).
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../run-cli.js';

const KEY = 'api-key-9f8e7d6c5b4a';
const GIVEN = 'given-header-secret-1a2b3c';
const PARAM = 'svc-param-secret-4d5e6f';

let server: Server;
let base: string;
/** The header the card names for its API key, by test. */
let keyHeader = 'X-Key';
const received: IncomingHttpHeaders[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.method === 'GET') {
      const card = {
        name: 'headers',
        description: 'names its API key header',
        version: '1',
        supportedInterfaces: [{ url: `${base}/rpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
        securitySchemes: { key: { apiKeySecurityScheme: { location: 'header', name: keyHeader } } },
        securityRequirements: [{ schemes: { key: { list: [] } } }],
        capabilities: {},
        defaultInputModes: ['text/plain'],
        defaultOutputModes: ['text/plain'],
        skills: [],
      };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(card));
      return;
    }
    received.push(req.headers);
    req.resume().on('end', () => res.writeHead(500).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe('--debug never shows a credential in a header it shows', { timeout: 60_000 }, () => {
  it.each(['User-Agent', 'ETag', 'Last-Modified'])('a card that names %s for its API key: refused, the key nowhere', async (name) => {
    keyHeader = name;
    const from = received.length;
    const { code, stdout, stderr } = await runCli(['send', `${base}/`, '--api-key', KEY, '--debug', 'hello']);
    expect(stdout + stderr).not.toContain(KEY);
    expect(stderr).toContain(`puts the API key in the header "${name}"`);
    expect(code).not.toBe(0);
    expect(received.slice(from)).toEqual([]);
  });

  it('a header given with -H or --svc-param under a shown name: sent, shown [redacted]', async () => {
    keyHeader = 'X-Key';
    const from = received.length;
    const { stdout, stderr } = await runCli(['send', `${base}/`, '-H', `User-Agent: ${GIVEN}`, '--debug', 'hello'], {
      env: { A2ACLI_SVC_PARAM: `Accept:${PARAM}` },
    });
    expect(received.slice(from).some((headers) => headers['user-agent'] === GIVEN && headers['accept'] === PARAM)).toBe(true);
    expect(stderr).toContain('user-agent: [redacted]');
    expect(stderr).toContain('accept: [redacted]');
    expect(stdout + stderr).not.toContain(GIVEN);
    expect(stdout + stderr).not.toContain(PARAM);
  });
});
