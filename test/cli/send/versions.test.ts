/**
 * The versions `send` speaks: A2A 1.0 by default (the specification's floor); `--a2a-version 0.3`, its
 * variable A2ACLI_A2A_VERSION and a config file's line admit the whole generation before 1.0, so cards
 * that say "0.1.0" (BeeAI) and "0.2.0" (Strands Agents TS) over the v0.3 wire are reached as `chat`
 * reaches them. The refusal's hint names the flag and the line.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBeeAiAgent, startStrandsAgent } from '../../../fixtures/agent-pre03.js';
import { REPLY, type FixtureAgent } from '../../../fixtures/index.js';
import { runCli } from '../run-cli.js';

let beeai: FixtureAgent;
let strands: FixtureAgent;
let dir: string;
beforeAll(async () => {
  [beeai, strands] = await Promise.all([startBeeAiAgent(), startStrandsAgent()]);
  dir = mkdtempSync(join(tmpdir(), 'a4h-versions-'));
});
afterAll(async () => {
  await Promise.all([beeai.close(), strands.close()]);
  rmSync(dir, { recursive: true, force: true });
});

const agents = () =>
  [
    ['BeeAI (card 0.1.0)', beeai, '0.1.0'],
    ['Strands TS (card 0.2.0)', strands, '0.2.0'],
  ] as const;

/** The one JSON document of `-o json`. */
const documentOf = (stdout: string): Record<string, unknown> => JSON.parse(stdout.trim()) as Record<string, unknown>;

/** The task of a SendMessageResponse, with its state and its artifacts' text. */
function taskOf(stdout: string): { id: string; state: string; text: string } {
  const task = documentOf(stdout)['task'] as {
    id: string;
    status: { state: string };
    artifacts?: { parts: { text?: string }[] }[];
  };
  const text = (task.artifacts ?? []).flatMap((a) => a.parts.map((p) => p.text ?? '')).join('');
  return { id: task.id, state: task.status.state, text };
}

/** The methods the agent was asked since `from` (a card fetch is `GET …`). */
const methodsSince = (agent: FixtureAgent, from: number) => agent.received.slice(from).map((r) => r.method);

describe('send to an agent whose card says a version before 0.3', () => {
  it('--a2a-version 0.3: text and -o json, each agent reached on the v0.3 wire', async () => {
    for (const [name, agent] of agents()) {
      const text = await runCli(['send', agent.url('/'), '--a2a-version', '0.3', 'artifacts']);
      expect(text.code, `${name}: ${text.stderr}`).toBe(0);
      expect(text.stdout, name).toContain('State: TASK_STATE_COMPLETED');
      expect(text.stdout, name).toContain(REPLY.artifacts);
      const json = await runCli(['send', agent.url('/'), '--a2a-version', '0.3', '-o', 'json', 'artifacts']);
      expect(json.code, name).toBe(0);
      expect(taskOf(json.stdout), name).toMatchObject({ state: 'TASK_STATE_COMPLETED', text: expect.stringContaining(REPLY.artifacts) });
      expect(agent.received.some((r) => r.method === 'message/stream' || r.method === 'message/send')).toBe(true);
    }
  }, 60_000);

  it('A2ACLI_A2A_VERSION=0.3 does what the flag does (text and -o json)', async () => {
    const env = { A2ACLI_A2A_VERSION: '0.3' };
    for (const [name, agent] of agents()) {
      const text = await runCli(['send', agent.url('/'), 'artifacts'], { env });
      expect(text.code, `${name}: ${text.stderr}`).toBe(0);
      expect(text.stdout, name).toContain(REPLY.artifacts);
      const json = await runCli(['send', agent.url('/'), '-o', 'json', 'artifacts'], { env });
      expect(json.code, name).toBe(0);
      expect(taskOf(json.stdout).state, name).toBe('TASK_STATE_COMPLETED');
    }
  }, 60_000);

  it('a config file line A2ACLI_A2A_VERSION=0.3 (--config FILE, the global file) does it too; the flag wins over it', async () => {
    const file = join(dir, 'versions.env');
    writeFileSync(file, 'A2ACLI_A2A_VERSION=0.3\n');
    chmodSync(file, 0o600);
    const local = await runCli(['send', strands.url('/'), '--config', file, 'artifacts']);
    expect(local.code, local.stderr).toBe(0);
    expect(local.stdout).toContain(REPLY.artifacts);
    const home = join(dir, 'config');
    const global = join(home, 'a4h');
    mkdirSync(global, { recursive: true, mode: 0o700 });
    writeFileSync(join(global, '.env'), 'A2ACLI_A2A_VERSION=0.3\n', { mode: 0o600 });
    const fromGlobal = await runCli(['send', beeai.url('/'), 'artifacts'], { env: { XDG_CONFIG_HOME: home }, cwd: dir });
    expect(fromGlobal.code, fromGlobal.stderr).toBe(0);
    expect(fromGlobal.stdout).toContain(REPLY.artifacts);
    const shown = await runCli(['config', 'show', '--config', file]);
    expect(shown.stdout).toContain(`a2a-version: 0.3 (source: file ${file})`);
    const flagWins = await runCli(['send', beeai.url('/'), '--config', file, '--a2a-version', '1.0', '-o', 'json', 'artifacts']);
    expect([flagWins.code, documentOf(flagWins.stdout)['error']]).toEqual([
      1,
      expect.objectContaining({ code: 'VersionNotSupportedError' }),
    ]);
  }, 60_000);

  it('without it: VersionNotSupportedError naming the card’s version, nothing sent, the hint names the flag and the line', async () => {
    for (const [name, agent, version] of agents()) {
      const from = agent.received.length;
      const refused = await runCli(['send', agent.url('/'), '-o', 'json', 'artifacts']);
      expect(refused.code, name).toBe(1);
      const error = documentOf(refused.stdout)['error'] as { code: string; message: string; hint: string; a2aCode: number };
      expect(error, name).toMatchObject({ code: 'VersionNotSupportedError', a2aCode: -32009 });
      expect(error.message, name).toContain(`A2A ${version}, older than 1.0`);
      expect(error.hint, name).toContain('--a2a-version 0.3');
      expect(error.hint, name).toContain('A2ACLI_A2A_VERSION=0.3');
      expect(error.hint, name).not.toContain('--debug');
      expect(
        methodsSince(agent, from).every((method) => method.startsWith('GET ')),
        name,
      ).toBe(true);
      const text = await runCli(['send', agent.url('/'), 'artifacts']);
      expect(text.code, name).toBe(1);
      expect(text.stderr, name).toMatch(/Hint: .*--a2a-version 0\.3.*A2ACLI_A2A_VERSION=0\.3/);
    }
  }, 60_000);

  it('--a2a-version 0.1 and 0.2 are the same generation, taken as 0.3; anything else is bad usage naming where it came from', async () => {
    for (const version of ['0.1', '0.2', '0.2.0']) {
      const run = await runCli(['send', strands.url('/'), '--a2a-version', version, 'artifacts']);
      expect(run.code, `${version}: ${run.stderr}`).toBe(0);
      expect(run.stdout).toContain(REPLY.artifacts);
    }
    const flag = await runCli(['send', strands.url('/'), '--a2a-version', '0.4', 'artifacts']);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain('--a2a-version takes 1.0 (the default) or 0.3');
    const variable = await runCli(['send', strands.url('/'), 'artifacts'], { env: { A2ACLI_A2A_VERSION: 'latest' } });
    expect(variable.code).toBe(2);
    expect(variable.stderr).toContain('environment A2ACLI_A2A_VERSION: --a2a-version takes');
  }, 60_000);

  it('the task commands read it too: task get with A2ACLI_A2A_VERSION=0.3, refused without it', async () => {
    const sent = await runCli(['send', beeai.url('/'), '--a2a-version', '0.3', '-o', 'json', 'artifacts']);
    const { id } = taskOf(sent.stdout);
    const got = await runCli(['task', 'get', id, '-a', beeai.url('/')], { env: { A2ACLI_A2A_VERSION: '0.3' } });
    expect(got.code, got.stderr).toBe(0);
    expect(got.stdout).toContain(`Task ID: ${id}`);
    const refused = await runCli(['task', 'get', id, '-a', beeai.url('/')]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('VersionNotSupportedError');
    expect(refused.stderr).toContain('A2ACLI_A2A_VERSION=0.3');
  }, 60_000);

  it('chat reaches both, as before', async () => {
    for (const [name, agent] of agents()) {
      const { code, stdout, stderr } = await runCli(['chat', agent.url('/'), '--thread', `pre03-${name}`], { input: 'artifacts\n' });
      expect(code, `${name}: ${stderr}`).toBe(0);
      expect(stdout, name).toBe(`${REPLY.artifacts}\n`);
    }
  }, 60_000);
});
