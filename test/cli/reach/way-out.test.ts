/**
 * A way out of an unreachable interface: a real SDK agent whose card lists gRPC first, on a port
 * nobody serves, with JSON-RPC beside it. `send` keeps the card's order (no silent switch) and its
 * error names the other interface and the `--transport` that picks it, in every output mode; that
 * flag reaches the agent.
 */
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_SCRIPT } from '../../../fixtures/behaviours.js';
import { grpcInterface, v1Card, v1Interfaces } from '../../../fixtures/cards.js';
import { startHost, type Host } from '../../../fixtures/http-host.js';
import { mountV1 } from '../../../fixtures/mount-v1.js';
import { jsonLines, runCli, cardInfo } from '../run-cli.js';

/** A loopback port that was free a moment ago and that nobody serves. */
async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

let host: Host;
let agent: string;
let dead: string;
beforeAll(async () => {
  host = await startHost();
  dead = `127.0.0.1:${await deadPort()}`;
  const info = cardInfo('dead-grpc-first', 'gRPC first, on a dead port');
  const card = v1Card(info, [grpcInterface(dead), ...v1Interfaces(host, '/', ['JSONRPC'])]);
  mountV1(host, { mount: '/', card, script: FIXTURE_SCRIPT, bindings: ['JSONRPC'] });
  agent = host.url('/', '');
});
afterAll(() => host?.agent.close());

describe('a card whose first interface is unreachable', () => {
  it('send: the card order stays (gRPC is called), and the error names JSON-RPC and --transport JSONRPC', async () => {
    const { code, stdout, stderr } = await runCli(['send', agent, 'hello']);
    expect(code).toBe(3);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/^Error: A2ACLI_ERR_UNREACHABLE$/m);
    expect(stderr).toContain(dead);
    const hint = /^Hint: (.*)$/m.exec(stderr)?.[1] ?? '';
    expect(hint).toContain(`the card also offers JSONRPC 1.0 at ${host.url('/', '/a2a/jsonrpc')} (--transport JSONRPC)`);
    expect(hint).toContain('--transport JSONRPC');
  });

  it('send -o json: the envelope’s hint names it too', async () => {
    const { code, stdout } = await runCli(['send', agent, '-o', 'json', 'hello']);
    expect(code).toBe(3);
    const envelope = JSON.parse(stdout) as { error: { code: string; hint: string } };
    expect(envelope.error.code).toBe('A2ACLI_ERR_UNREACHABLE');
    expect(envelope.error.hint).toContain('--transport JSONRPC');
  });

  it('send --json: the error line and stderr name it', async () => {
    const { code, stdout, stderr } = await runCli(['send', agent, '--json', 'hello']);
    expect(code).toBe(3);
    const last = jsonLines(stdout).at(-1);
    expect(last).toMatchObject({ type: 'error', kind: 'network', hint: expect.stringContaining('--transport JSONRPC') });
    expect(stderr).toContain('--transport JSONRPC');
  });

  it('--transport JSONRPC, as the hint says, reaches the agent', async () => {
    const { code, stdout } = await runCli(['send', agent, '--transport', 'JSONRPC', 'hello']);
    expect(code).toBe(0);
    expect(stdout).toContain('echo: hello');
  });
});
