import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { startV03Agent, startV1Agent, V1_MOUNTS, type FixtureAgent } from '../../../fixtures/index.js';
import { runCliWithin, writeCardFile } from '../run-cli.js';
import { useAgent } from '../../agent-rig.js';

// Processes start slowly on a machine busy with other suites: each run and each test get room.
vi.setConfig({ testTimeout: 120_000 });
const runCli = runCliWithin(60_000);

let agent: FixtureAgent;
let dir: string;
useAgent(startV1Agent, (a) => (agent = a));
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'a4h-card-'));
});

const field = (stdout: string, label: string): string | undefined => new RegExp(`^${label}: (.*)$`, 'm').exec(stdout)?.[1];
const cardUrl = (mount: string): string => `${agent.url(mount)}.well-known/agent-card.json`;

/** The agent's card as it serves it, written to a file; `change` edits it first. */
const cardFile = (name: string, change?: (card: Record<string, unknown>) => void): Promise<string> =>
  writeCardFile(cardUrl('/'), dir, name, change);

describe('a4h card get', () => {
  it("a v0.3 agent's card too; --a2a-version 1.0 asks for a v1.0 interface (VersionNotSupportedError)", async () => {
    const v03 = await startV03Agent();
    try {
      const { code, stdout } = await runCli(['card', 'get', v03.url('/')]);
      expect(code).toBe(0);
      expect(stdout).toMatch(/0\.3/);
      const floor = await runCli(['card', 'get', v03.url('/'), '--a2a-version', '1.0', '-o', 'json']);
      expect(floor.code).toBe(1);
      expect(JSON.parse(floor.stdout)).toMatchObject({ error: { code: 'VersionNotSupportedError' } });
    } finally {
      await v03.close();
    }
  });

  it('from a bare host (loopback: http), as Label: value lines: the transport it chose from the card', async () => {
    const host = agent.baseUrl.replace('http://', '');
    const { code, stdout } = await runCli(['card', 'get', host]);
    expect(code).toBe(0);
    expect(field(stdout, 'Name')).toBe('v1-main');
    expect(field(stdout, 'Protocol Version')).toBe('1.0');
    expect(field(stdout, 'Transport')).toBe('JSONRPC');
    expect(field(stdout, 'URL')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/a2a\/jsonrpc$/);
    expect(stdout).toMatch(/^Skills:\nFixture behaviours: /m);
  });

  it('from an explicit card URL, -o json: the AgentCard as the agent served it', async () => {
    const { code, stdout } = await runCli(['card', 'get', '-a', cardUrl(V1_MOUNTS.rest), '-o', 'json']);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual(await (await fetch(cardUrl(V1_MOUNTS.rest))).json());
  });

  it('from a file:// URL and from a plain path: the card read from disk, its interface chosen for the calls', async () => {
    const path = await cardFile('card.json');
    for (const ref of [pathToFileURL(path).href, path]) {
      const { code, stdout } = await runCli(['card', 'get', ref]);
      expect(code).toBe(0);
      expect(field(stdout, 'Name')).toBe('v1-main');
      expect(field(stdout, 'Transport')).toBe('JSONRPC');
    }
    // The file's card is the agent's for the task commands too: its calls go where the card says.
    const task = await runCli(['task', 'get', 'no-such-task', '-a', path, '-o', 'json']);
    expect(JSON.parse(task.stdout)).toMatchObject({ error: { code: 'TaskNotFoundError' } });
  });

  it('a card file that is not there: A2ACLI_ERR_CARD_NOT_FOUND, exit 3', async () => {
    const { code, stdout } = await runCli(['card', 'get', join(dir, 'missing.json'), '-o', 'json']);
    expect(code).toBe(3);
    expect(JSON.parse(stdout)).toMatchObject({ error: { code: 'A2ACLI_ERR_CARD_NOT_FOUND' } });
  });

  it('--validate: a valid card says so', async () => {
    const { code, stdout, stderr } = await runCli(['card', 'get', agent.url('/'), '--validate']);
    expect(code).toBe(0);
    expect(field(stdout, 'Valid')).toBe('yes');
    expect(stderr).toContain('valid A2A 1.0 AgentCard');
  });

  it('--validate: every problem of an invalid card with its path, A2ACLI_ERR_CARD_INVALID, exit 1', async () => {
    const path = await cardFile('bad.json', (card) => {
      delete card['version'];
      card['skills'] = [{ id: 's', name: 'S', tags: [] }];
    });
    const { code, stdout } = await runCli(['card', 'get', path, '--validate', '-o', 'json']);
    expect(code).toBe(1);
    const { error } = JSON.parse(stdout) as { error: { code: string; message: string } };
    expect(error.code).toBe('A2ACLI_ERR_CARD_INVALID');
    expect(error.message).toContain('version');
    expect(error.message).toContain('skills.0.description');
  });

  it('--help shows the defaults', async () => {
    const { code, stdout } = await runCli(['card', 'get', '--help']);
    expect(code).toBe(0);
    expect(stdout).toContain('default: the card is checked only as far as the client needs');
    expect(stdout).toContain('text (default');
  });
});
