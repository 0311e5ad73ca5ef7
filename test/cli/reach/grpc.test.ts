/**
 * The command against the demo agent serving gRPC only (`serve --grpc`, v1.0 and v0.3): `a4h card`
 * shows the gRPC interface, `a4h send` and `a4h chat` reach the agent over it.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoAgent, type DemoAgent } from '../../../demo/agent.js';
import { FIXTURE_SCRIPT, fixtureSkill } from '../../../fixtures/behaviours.js';
import { v1Card } from '../../../fixtures/cards.js';
import { startHost } from '../../../fixtures/http-host.js';
import { mountGrpcV1 } from '../../../fixtures/mount-grpc.js';
import { REPLY } from '../../../fixtures/texts.js';
import { jsonLines, runCli } from '../run-cli.js';

let dir: string;
const agents: Record<'1.0' | '0.3', DemoAgent | undefined> = { '1.0': undefined, '0.3': undefined };
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'a4h-grpc-cli-'));
  for (const protocol of ['1.0', '0.3'] as const) {
    agents[protocol] = await startDemoAgent({ protocol, grpc: true, memoryFile: join(dir, `memory-${protocol}.json`), chunkDelayMs: 1 });
  }
});
afterAll(async () => {
  await Promise.all(Object.values(agents).map((agent) => agent?.close()));
  rmSync(dir, { recursive: true, force: true });
});

for (const protocol of ['1.0', '0.3'] as const) {
  describe(`the demo agent over gRPC only (A2A ${protocol})`, () => {
    const url = () => agents[protocol]!.url;

    it('a4h card shows the gRPC interface', async () => {
      const { code, stdout } = await runCli(['card', url()]);
      expect(code).toBe(0);
      expect(stdout).toMatch(new RegExp(`^Protocol Version: ${protocol.replace('.', '\\.')}(\\.0)?$`, 'm'));
      expect(stdout).toMatch(/^Transport: GRPC\nURL: grpc:\/\/127\.0\.0\.1:\d+\n/m);
      // -o json: the card as the agent served it, its gRPC interface in it.
      expect((await runCli(['card', url(), '-o', 'json'])).stdout).toMatch(/"GRPC"/);
    });

    it('a4h send: the reply over gRPC, the same thread remembered on the next turn', async () => {
      // A v0.3 agent too: the version allowed by name (the specification's floor is 1.0).
      const v = ['--a2a-version', protocol === '0.3' ? '0.3' : '1.0'];
      const first = jsonLines((await runCli(['send', url(), '--json', ...v, '--thread', 'grpc-1', 'my name is Ada'])).stdout).at(-1);
      const second = await runCli(['send', url(), '--json', ...v, '--thread', 'grpc-1', 'what is my name?']);
      expect(second.code).toBe(0);
      const end = jsonLines(second.stdout).at(-1);
      expect(first).toMatchObject({ type: 'end', outcome: 'completed' });
      expect(end).toMatchObject({ type: 'end', outcome: 'completed', contextId: first!['contextId'] });
      expect(String(end!['text'])).toContain('my name is Ada');
    });

    it('a4h chat: each line answered over gRPC', async () => {
      const { code, stdout, stderr } = await runCli(['chat', url(), '--thread', 'grpc-chat'], { input: 'hello\nforget\n' });
      expect(code).toBe(0);
      expect(stderr).toMatch(new RegExp(`A2A ${protocol.replace('.', '\\.')}(\\.0)?, GRPC, streaming`));
      expect(stdout.trim().split('\n').length).toBeGreaterThanOrEqual(2);
    });
  });
}

describe('a gRPC interface at an https:// address', () => {
  const CERT = fileURLToPath(new URL('../../../fixtures/tls/self-signed.crt', import.meta.url));
  const KEY = fileURLToPath(new URL('../../../fixtures/tls/self-signed.key', import.meta.url));

  it("is called over TLS (the server speaks only TLS; its certificate trusted through @grpc/grpc-js's roots file)", async () => {
    const host = await startHost();
    try {
      const info = { name: 'tls', description: 'gRPC over TLS', version: '1.0.0', streaming: true, skills: [fixtureSkill()] };
      await mountGrpcV1(host, {
        mount: '/',
        script: FIXTURE_SCRIPT,
        tls: { key: readFileSync(KEY), cert: readFileSync(CERT) },
        card: (target) => v1Card(info, [{ url: `https://${target}`, protocolBinding: 'GRPC', protocolVersion: '1.0', tenant: '' }]),
      });
      const env = { GRPC_DEFAULT_SSL_ROOTS_FILE_PATH: CERT };
      const card = await runCli(['card', host.agent.url('/')], { env });
      expect(card.stdout).toMatch(/^Transport: GRPC\nURL: grpcs:\/\/127\.0\.0\.1:\d+\n/m);
      const sent = await runCli(['send', host.agent.url('/'), '--json', 'artifacts'], { env });
      expect(jsonLines(sent.stdout).at(-1)).toMatchObject({ type: 'end', outcome: 'completed', text: REPLY.artifacts });
      // Without trusting the certificate, the TLS handshake fails: the agent cannot be reached, exit 3.
      const untrusted = await runCli(['send', host.agent.url('/'), 'artifacts']);
      expect(untrusted.code).toBe(3);
    } finally {
      await host.agent.close();
    }
  }, 60_000);
});
