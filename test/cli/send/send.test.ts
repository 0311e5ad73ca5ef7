import { describe, expect, it } from 'vitest';
import { FAIL_MESSAGE, INPUT_QUESTION, REPLY, AUTH_PROMPT, type FixtureAgent } from '../../../fixtures/index.js';
import { deriveContextId } from '../../../src/identity/context-id.js';
import { jsonLines, runCli, SECRET, interruptedMidReply } from '../run-cli.js';
import { useBothAgents } from '../../agent-rig.js';

let v1: FixtureAgent;
let v03: FixtureAgent;
useBothAgents((a, b) => ([v1, v03] = [a, b]));

describe('a4h send --json', () => {
  for (const [text, reply] of [
    ['artifacts', REPLY.artifacts],
    ['status', REPLY.status],
    ['message', REPLY.message],
  ] as const) {
    it(`${text}: the last line is the end event with the reply`, async () => {
      const { code, stdout } = await runCli(['send', v1.url('/'), '--json', '--thread', `json-${text}`, text]);
      const lines = jsonLines(stdout);
      expect(lines[0]).toMatchObject({ type: 'start' });
      expect(lines.at(-1)).toMatchObject({ type: 'end', outcome: 'completed', text: reply });
      expect(lines.filter((l) => l['type'] === 'end')).toHaveLength(1);
      expect(code).toBe(0);
    });
  }

  it('the contextId is the one derived from the secret, handle and thread', async () => {
    const { stdout } = await runCli(['send', v1.url('/'), '--json', '--handle', 'travel', '--thread', 'slack:T1:C2', 'artifacts']);
    expect(jsonLines(stdout).at(-1)).toMatchObject({ contextId: await deriveContextId(SECRET, 'travel', 'slack:T1:C2') });
  });
});

describe('a4h send: exit status per outcome (0: the command did its job, whatever the task became)', () => {
  it('0 completed, the reply in its artifact block', async () => {
    const { code, stdout } = await runCli(['send', v1.url('/'), 'artifacts']);
    expect(code).toBe(0);
    expect(stdout).toContain(`State: TASK_STATE_COMPLETED\nArtifact: answer\n${REPLY.artifacts}\n\n`);
  });
  it('0 input-required, the question in the status message, the state named on stderr', async () => {
    const { code, stdout, stderr } = await runCli(['send', v1.url('/'), 'input']);
    expect(code).toBe(0);
    expect(stdout).toContain(`State: TASK_STATE_INPUT_REQUIRED\nStatus Message:\n${INPUT_QUESTION}\n`);
    expect(stderr).toContain('TASK_STATE_INPUT_REQUIRED');
  });
  it('0 auth-required (a v0.3 agent, allowed with --a2a-version 0.3), the sign-in prompt shown, not waited on', async () => {
    const { code, stdout, stderr } = await runCli(['send', v03.url('/'), '--a2a-version', '0.3', 'auth']);
    expect(code).toBe(0);
    expect(stdout).toContain('State: TASK_STATE_AUTH_REQUIRED');
    expect(stdout).toContain(AUTH_PROMPT);
    expect(stderr).toContain('TASK_STATE_AUTH_REQUIRED');
  });
  it("0 failed, the agent's message shown, the state named on stderr", async () => {
    const { code, stdout, stderr } = await runCli(['send', v1.url('/'), 'fail']);
    expect(code).toBe(0);
    expect(stdout).toContain(FAIL_MESSAGE);
    expect(stderr).toContain('the task ended TASK_STATE_FAILED');
  });
  it('3 when the agent cannot be reached, with its code, message and hint', async () => {
    const { code, stderr } = await runCli(['send', 'http://127.0.0.1:9/', 'hi']);
    expect(code).toBe(3);
    expect(stderr).toMatch(/^Error: A2ACLI_ERR_UNREACHABLE\nMessage: could not fetch the agent card.*\nHint: .*\n$/);
  });
  it('--verbose shows the cause chain', async () => {
    const { stderr } = await runCli(['send', 'http://127.0.0.1:9/', 'hi', '--verbose']);
    expect(stderr).toMatch(/Caused By: /);
  });
  it.each([
    [['send']],
    [['send', v1?.url('/') ?? 'http://127.0.0.1:9/']],
    [['send', 'not a url', 'hi']],
    [['send', 'http://127.0.0.1:9/', '--timeout', 'soon', 'hi']],
    [['send', 'http://127.0.0.1:9/', '--bogus', 'hi']],
    [['frobnicate']],
  ])('2 for bad usage: %j', async (args) => {
    const { code, stderr } = await runCli(args);
    expect(code).toBe(2);
    expect(stderr).not.toBe('');
  });
});

describe('a4h send: cancel', () => {
  it('SIGINT during a slow turn makes the agent receive CancelTask', async () => {
    const { code, stderr } = await interruptedMidReply(['send', v1.url('/'), '--json', '--thread', 'sigint', 'slow']);
    expect(code).toBe(1);
    expect(stderr).toContain('cancelled');
    expect(v1.received.filter((r) => r.method === 'CancelTask')).toHaveLength(1);
  });

  it('--timeout ends a slow turn, cancels it, and exits 5', async () => {
    const before = v1.received.filter((r) => r.method === 'CancelTask').length;
    const { code, stderr } = await runCli(['send', v1.url('/'), '--timeout', '0.5', '--thread', 'timeout', 'slow']);
    expect(code).toBe(5);
    expect(stderr).toMatch(/timed out/);
    expect(v1.received.filter((r) => r.method === 'CancelTask')).toHaveLength(before + 1);
  });
});

describe('a4h card and a4h context', () => {
  it('card shows protocol, transport and streaming', async () => {
    const { code, stdout } = await runCli(['card', v03.url('/')]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Protocol Version: 0\.3(\.0)?$/m);
    expect(stdout).toMatch(/^Transport: JSONRPC$/m);
    expect(stdout).toMatch(/^Streaming: yes$/m);
  });
  it('card: the tenant; -o json the card as served', async () => {
    const { stdout } = await runCli(['card', v1.url('/tenant/')]);
    expect(stdout).toMatch(/^Protocol Version: 1\.0\nTransport: JSONRPC\n(.+\n)*Tenant: acme$/m);
    const json = await runCli(['card', v1.url('/tenant/'), '-o', 'json']);
    expect(JSON.parse(json.stdout)).toMatchObject({
      supportedInterfaces: expect.arrayContaining([expect.objectContaining({ tenant: 'acme' })]),
    });
  });
  it('context prints the check value', async () => {
    const { code, stdout } = await runCli(['context', 'travel', 'slack:T1:C2:1700000000.000100']);
    expect(code).toBe(0);
    expect(stdout).toBe('d60044ef-6a7b-855b-8640-611124ea95dc\n');
  });
  it("context prints every candidate after a rotation: the current one, then each previous secret's", async () => {
    const previous = 'the secret before the rotation';
    const env = { A4H_PREVIOUS_IDENTITY_SECRETS: `${previous}, ,short-one-of-16b!` };
    const { code, stdout } = await runCli(['context', 'travel', 'slack:T1:C2:1700000000.000100'], { env });
    expect(code).toBe(0);
    const [current, ...rest] = stdout.trimEnd().split('\n');
    expect(current).toBe('d60044ef-6a7b-855b-8640-611124ea95dc');
    expect(rest).toEqual([
      `previous ${await deriveContextId(previous, 'travel', 'slack:T1:C2:1700000000.000100')}`,
      `previous ${await deriveContextId('short-one-of-16b!', 'travel', 'slack:T1:C2:1700000000.000100')}`,
    ]);
    const short = await runCli(['context', 'travel', 'k'], { env: { A4H_PREVIOUS_IDENTITY_SECRETS: 'too short' } });
    expect(short.code).toBe(2);
    expect(short.stderr).not.toContain('too short');
  });
  it('context without a secret is refused', async () => {
    const { code, stderr } = await runCli(['context', 'travel', 'k'], { env: { A4H_IDENTITY_SECRET: undefined } });
    expect(code).toBe(2);
    expect(stderr).toContain('A4H_IDENTITY_SECRET');
  });
  it('--version and --help', async () => {
    expect((await runCli(['--version'])).stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
    for (const command of ['send', 'chat', 'card', 'context']) {
      const { code, stdout } = await runCli([command, '--help']);
      expect(code).toBe(0);
      expect(stdout).toContain(`a4h ${command}`);
    }
  });
});
