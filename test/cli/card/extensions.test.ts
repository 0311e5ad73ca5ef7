import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  EXTENSION_MOUNTS,
  EXTENSIONS,
  REQUIRED_DESCRIPTION,
  startExtensionAgents,
  type ExtensionAgents,
} from '../../../fixtures/agent-extensions.js';
import { REPLY, startV1Agent } from '../../../fixtures/index.js';
import { blocksOf, jsonLines, runCli } from '../run-cli.js';

let agents: ExtensionAgents;
beforeAll(async () => {
  agents = await startExtensionAgents();
});
afterAll(() => agents.close());

const CARD = 'GET /.well-known/agent-card.json';
/** The protocol calls the v1.0 host received since `from`. */
const callsSince = (from: number) => agents.v1.received.slice(from).filter((r) => r.method !== CARD);

describe('a4h card: the extensions the card declares', () => {
  it('one line each in the Extensions block: URI, required or optional, description', async () => {
    const { code, stdout } = await runCli(['card', agents.v1.url(EXTENSION_MOUNTS.required)]);
    expect(code).toBe(0);
    expect(stdout).toContain(
      `Extensions:\n${EXTENSIONS.optional} (optional): Adds timestamps to replies.\n` +
        `${EXTENSIONS.required} (required: activate it with --extension): ${REQUIRED_DESCRIPTION}\n`,
    );
  });

  it('-o json: the card as served carries them; a card that declares none says so', async () => {
    const json = await runCli(['card', agents.v03.url('/'), '-o', 'json']);
    expect(JSON.parse(json.stdout)).toMatchObject({
      capabilities: { extensions: [{ uri: EXTENSIONS.optional }, { uri: EXTENSIONS.required, required: true }] },
    });
    const plain = await startV1Agent();
    try {
      const { stdout } = await runCli(['card', plain.url('/')]);
      expect(stdout).toContain('Extensions:\n(none declared)\n');
    } finally {
      await plain.close();
    }
  });
});

describe('--extension on send, resume and chat', () => {
  it('send without the extension the card requires: exit 2, the URI and the flag named, nothing sent', async () => {
    const from = agents.v1.received.length;
    const { code, stdout, stderr } = await runCli(['send', agents.v1.url(EXTENSION_MOUNTS.required), 'artifacts']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain(EXTENSIONS.required);
    expect(stderr).toContain(`activate it with --extension ${EXTENSIONS.required}`);
    expect(callsSince(from)).toEqual([]);
  });

  it('send --json: the error line names the extensions', async () => {
    const { code, stdout } = await runCli(['send', '--json', agents.v1.url(EXTENSION_MOUNTS.required), 'artifacts']);
    expect(code).toBe(2);
    expect(jsonLines(stdout).at(-1)).toMatchObject({ type: 'error', kind: 'input', extensions: [EXTENSIONS.required] });
  });

  it('send --extension (repeatable): the reply, every call carrying them', async () => {
    const from = agents.v1.received.length;
    const agent = agents.v1.url(EXTENSION_MOUNTS.required);
    const { code, stdout } = await runCli([
      'send',
      agent,
      '--extension',
      EXTENSIONS.required,
      '--extension',
      EXTENSIONS.optional,
      'artifacts',
    ]);
    expect({ code, reply: blocksOf(stdout) }).toEqual({ code: 0, reply: REPLY.artifacts });
    const calls = callsSince(from);
    expect(calls.map((r) => r.method)).toContain('SendStreamingMessage');
    for (const request of calls) expect(request.headers['a2a-extensions']).toBe(`${EXTENSIONS.required},${EXTENSIONS.optional}`);
  });

  it('resume --extension: its calls carry it', async () => {
    const from = agents.v1.received.length;
    const { code } = await runCli([
      'resume',
      agents.v1.url(EXTENSION_MOUNTS.required),
      '--extension',
      EXTENSIONS.required,
      '--task-id',
      'no-such-task',
    ]);
    expect(code).toBe(1); // the agent knows no such task
    const calls = callsSince(from);
    expect(calls.length).toBeGreaterThan(0);
    for (const request of calls) expect(request.headers['a2a-extensions']).toBe(EXTENSIONS.required);
  });

  it('chat --extension: each turn carries it; without it, chat says at once which flag the agent needs', async () => {
    const agent = agents.v1.url(EXTENSION_MOUNTS.required);
    const from = agents.v1.received.length;
    const chatted = await runCli(['chat', agent, '--thread', 'cli-ext', '--extension', EXTENSIONS.required], { input: 'artifacts\n' });
    expect(chatted.code).toBe(0);
    expect(chatted.stdout).toContain(REPLY.artifacts);
    const calls = callsSince(from);
    expect(calls.map((r) => r.method)).toContain('SendStreamingMessage');
    for (const request of calls) expect(request.headers['a2a-extensions']).toBe(EXTENSIONS.required);

    const without = await runCli(['chat', agent, '--thread', 'cli-ext-2'], { input: 'artifacts\n' });
    expect(without.stderr).toContain(`--extension ${EXTENSIONS.required}`);
    expect(without.code).toBe(1);
  });

  it('a flag value that is no URI is a usage error', async () => {
    const { code, stderr } = await runCli(['send', agents.v1.url(EXTENSION_MOUNTS.required), '--extension', 'not a uri', 'hi']);
    expect(code).toBe(2);
    expect(stderr).toContain('--extension');
  });
});
