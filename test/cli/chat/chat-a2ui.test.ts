import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startA2UIAgent, type A2UIAgents } from '../../../fixtures/agent-a2ui.js';
import { runCli } from '../run-cli.js';

// `a4h chat` and an agent that draws: a terminal draws no A2UI surface, so it says one came and where to see it.

let agents: A2UIAgents;
beforeAll(async () => {
  agents = await startA2UIAgent();
});
afterAll(() => agents.close());

describe('a4h chat: A2UI surfaces', () => {
  it('says once that a surface came and how to see it; a refused one is said too; nothing of it on stdout', async () => {
    const { code, stdout, stderr } = await runCli(['chat', agents.v1.url('/'), '--thread', 'a2ui-chat'], { input: 'form\nevil-url\n' });
    expect(code).toBe(0);
    expect(stderr.match(/the agent sent an interface \(A2UI surface form-[0-9a-f]+\); a terminal cannot draw it/g)).toHaveLength(1);
    expect(stderr).toContain('see its messages with a4h send -o json');
    expect(stderr).toContain('an interface from the agent was refused: an A2UI message carries a URL a browser would run');
    expect(stderr).not.toContain('javascript:');
    expect(stdout).not.toContain('createSurface');
  });
});
