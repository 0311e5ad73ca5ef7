/**
 * `a4h send` and `a4h card get --validate` against cards as agents in the wild publish them (issue 48):
 * @mastra/server 2.0.4 (fixtures/agent-mastra.ts: a relative card `url`, no `protocolVersion`, the
 * first A2A draft behind it), with its card saying it streams and saying it does not; and cards that
 * pass the schema but that the client cannot use. `--validate` gives one verdict, and its exit status.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startMastraAgent, type MastraAgent } from '../../../fixtures/agent-mastra.js';
import { startV03Agent, type FixtureAgent } from '../../../fixtures/index.js';
import { runCliWithin, writeCardFile } from '../run-cli.js';

// Processes start slowly on a machine busy with other suites: each run and each test get room.
vi.setConfig({ testTimeout: 120_000 });
const runCli = runCliWithin(60_000);

const FIRST_DRAFT = 'this agent speaks the pre-0.2 A2A draft, which a4h-a2a does not speak';

let streaming: MastraAgent;
let blocking: MastraAgent;
let v03: FixtureAgent;
let dir: string;
beforeAll(async () => {
  [streaming, blocking, v03] = await Promise.all([startMastraAgent(), startMastraAgent({ streaming: false }), startV03Agent()]);
  dir = await mkdtemp(join(tmpdir(), 'a4h-wild-cards-'));
});
afterAll(async () => {
  await Promise.all([streaming.close(), blocking.close(), v03.close()]);
});

/** The v0.3 agent's card as it serves it, edited by `change`, written to a file. */
const cardFile = (name: string, change: (card: Record<string, unknown>) => void): Promise<string> =>
  writeCardFile(`${v03.url('/')}.well-known/agent-card.json`, dir, name, change);

describe('a4h send to @mastra/server 2.0.4 (the first A2A draft)', () => {
  it('its card says it streams: the refused message/stream is said as what it is, exit 1', async () => {
    const { code, stdout, stderr } = await runCli(['send', streaming.cardUrl, '--a2a-version', '0.3', 'hello']);
    expect(stdout).toBe('');
    expect(stderr).toContain(`${FIRST_DRAFT} (it refused message/stream with HTTP 400)`);
    expect(code).toBe(1);
  });

  it('its card says it does not stream: the refused blocking message/send is said so too, not as an HTTP 400', async () => {
    const { code, stdout, stderr } = await runCli(['send', blocking.cardUrl, '--a2a-version', '0.3', '-o', 'json', 'hello']);
    const { error } = JSON.parse(stdout) as { error: { code: string; message: string; a2aCode: number } };
    expect(error).toMatchObject({ code: 'VersionNotSupportedError', a2aCode: -32009 });
    expect(error.message).toBe(`${FIRST_DRAFT} (it refused message/send with HTTP 400)`);
    expect(stderr).not.toMatch(/failed with HTTP 400/);
    expect(code).toBe(1);
    expect(blocking.received.map((r) => r.method)).toEqual(['GET /.well-known/zoo-mastra2/agent.json', 'message/send']);
  });
});

describe('a4h card get --validate: one verdict, and the exit status it says', () => {
  it("@mastra/server 2.0.4's card (no protocolVersion, a relative url): not a valid v0.3 card, and only that is said", async () => {
    const { code, stdout, stderr } = await runCli(['card', 'get', streaming.cardUrl, '--validate']);
    expect(stderr).not.toContain('is a valid');
    expect(stderr).toContain('the agent card is not a valid A2A 0.3 AgentCard: protocolVersion must be a string');
    expect(stdout).toBe('');
    expect(code).toBe(1);
  });

  it('a card that passes the schema but whose url the client cannot use: its reason, never "valid"', async () => {
    const path = await cardFile('ftp.json', (card) => (card['url'] = 'ftp://agents.example/a2a'));
    const { code, stdout, stderr } = await runCli(['card', 'get', path, '--validate', '-o', 'json']);
    expect(stderr).not.toContain('is a valid');
    const { error } = JSON.parse(stdout) as { error: { code: string; message: string } };
    expect(error.code).toBe('A2ACLI_ERR_CARD_INVALID');
    expect(error.message).toContain(`the agent card's field url is not usable: it must be an http(s) URL, not "ftp://agents.example/a2a"`);
    expect(code).toBe(1);
  });

  it('a card the schema refuses and the client refuses too: both reasons in the one verdict', async () => {
    const path = await cardFile('both.json', (card) => {
      card['url'] = 'ftp://agents.example/a2a';
      delete card['version'];
    });
    const { code, stdout, stderr } = await runCli(['card', 'get', path, '--validate', '-o', 'json']);
    expect(stderr).not.toContain('is a valid');
    const { error } = JSON.parse(stdout) as { error: { code: string; message: string } };
    expect(error.code).toBe('A2ACLI_ERR_CARD_INVALID');
    expect(error.message).toMatch(/^the agent card is not a valid A2A 0\.3 AgentCard: version must be a string; /);
    expect(error.message).toContain(`the agent card's field url is not usable`);
    expect(code).toBe(1);
  });

  it('a valid v0.3 card of a version older than allowed (--a2a-version 1.0): the refusal alone, not "valid" first', async () => {
    const { code, stderr } = await runCli(['card', 'get', v03.url('/'), '--validate', '--a2a-version', '1.0']);
    expect(stderr).not.toContain('is a valid');
    expect(stderr).toContain('Error: VersionNotSupportedError');
    expect(code).toBe(1);
  });

  it('a valid v0.3 card the client uses: valid, shown, exit 0', async () => {
    const { code, stdout, stderr } = await runCli(['card', 'get', v03.url('/'), '--validate']);
    expect(stderr).toContain('the card is a valid A2A 0.3 AgentCard');
    expect(stdout).toMatch(/^Valid: yes$/m);
    expect(code).toBe(0);
  });
});
