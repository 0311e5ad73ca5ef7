import { lastValueFrom, tap } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  EXTENSION_MOUNTS,
  EXTENSIONS,
  REQUIRED_DESCRIPTION,
  REQUIRED_PARAMS,
  startExtensionAgents,
  type ExtensionAgents,
} from '../../../../fixtures/agent-extensions.js';
import { REPLY, type FixtureAgent } from '../../../../fixtures/index.js';
import { A2AError } from '../../../../src/errors.js';
import { createA2A } from '../../../../src/node/create-a2a.js';
import { createSdkPorts } from '../../../../src/sdk/ports.js';
import { FAST } from '../../harness.js';

const CARD = 'GET /.well-known/agent-card.json';
const SECRET = 'extensions test identity secret 0123456789';

let agents: ExtensionAgents;
beforeAll(async () => {
  agents = await startExtensionAgents();
});
afterAll(() => agents.close());

/** The protocol calls a mount received since `from` (card requests left out). */
const callsTo = (fixture: FixtureAgent, mount: string, from: number) =>
  fixture.received.slice(from).filter((r) => r.mount === mount && r.method !== CARD);

let threads = 0;
/** A client turn's events, or its error. */
async function turn(
  a2a: ReturnType<typeof createA2A>,
  agent: string,
  extensions?: string[],
): Promise<{ events: { type: string }[]; error?: A2AError }> {
  const events: { type: string }[] = [];
  const input = { agent, handle: 'h', thread: `t${threads++}`, text: 'artifacts', ...(extensions ? { extensions } : {}) };
  try {
    await lastValueFrom(a2a.turn(input).pipe(tap((event) => events.push(event))));
  } catch (error) {
    return { events, error: error as A2AError };
  }
  return { events };
}

describe("the card's extensions in the summary", () => {
  it('v1.0 and v0.3: uri, description, required and params, as the card declares them', async () => {
    const ports = createSdkPorts();
    const expected = [
      { uri: EXTENSIONS.optional, description: 'Adds timestamps to replies.', required: false },
      { uri: EXTENSIONS.required, description: REQUIRED_DESCRIPTION, required: true, params: REQUIRED_PARAMS },
    ];
    expect((await lastValueFrom(ports(agents.v1.url(EXTENSION_MOUNTS.required)).card())).extensions).toEqual(expected);
    expect((await lastValueFrom(ports(agents.v03.url('/')).card())).extensions).toEqual(expected);
    expect((await lastValueFrom(ports(agents.v1.url(EXTENSION_MOUNTS.optional)).card())).extensions).toEqual(expected.slice(0, 1));
  });
});

describe('an extension the card requires and the turn does not activate', () => {
  const cases: [name: string, fixture: () => FixtureAgent, mount: string, reader?: 'sdk'][] = [
    ['v1.0 JSON-RPC', () => agents.v1, EXTENSION_MOUNTS.required],
    ['v1.0 JSON-RPC, SDK reader', () => agents.v1, EXTENSION_MOUNTS.required, 'sdk'],
    ['v1.0 HTTP+JSON', () => agents.v1, EXTENSION_MOUNTS.requiredRest],
    ['v0.3 JSON-RPC', () => agents.v03, '/'],
    ['v0.3 HTTP+JSON', () => agents.v03, '/rest/'],
  ];
  for (const [name, fixture, mount, reader] of cases) {
    it(`${name}: an input error naming it before any message is sent; activated, the turn goes through`, async () => {
      const a2a = createA2A({ identitySecret: SECRET, policy: FAST.policy, ...(reader ? { ports: createSdkPorts({ reader }) } : {}) });
      const agent = fixture().url(mount);
      const from = fixture().received.length;
      try {
        const refused = await turn(a2a, agent, [EXTENSIONS.optional]);
        expect(refused.events.map((e) => e.type)).toEqual(['start']);
        expect(refused.error).toBeInstanceOf(A2AError);
        expect(refused.error).toMatchObject({ kind: 'input', retryable: false, extensions: [EXTENSIONS.required] });
        expect(refused.error?.message).toContain(EXTENSIONS.required);
        // The agent received nothing but its card request.
        expect(callsTo(fixture(), mount, from)).toEqual([]);
        // A resume is refused the same way, before anything is asked.
        await expect(lastValueFrom(a2a.resume({ agent, handle: 'h', thread: 'resumed', taskId: 'task-1' }))).rejects.toMatchObject({
          kind: 'input',
          extensions: [EXTENSIONS.required],
        });
        expect(callsTo(fixture(), mount, from)).toEqual([]);

        const activated = await turn(a2a, agent, [EXTENSIONS.required]);
        expect(activated.error).toBeUndefined();
        expect(activated.events.at(-1)).toMatchObject({ type: 'end', outcome: 'completed', text: REPLY.artifacts });
      } finally {
        await a2a.close();
      }
    });
  }

  it("the agent's extensions option activates it as well (by URL prefix)", async () => {
    const agent = agents.v1.url(EXTENSION_MOUNTS.required);
    const a2a = createA2A({ identitySecret: SECRET, policy: FAST.policy, extensions: { [agent]: [EXTENSIONS.required] } });
    try {
      const { events, error } = await turn(a2a, agent);
      expect(error).toBeUndefined();
      expect(events.at(-1)).toMatchObject({ type: 'end', outcome: 'completed' });
    } finally {
      await a2a.close();
    }
  });
});

describe('ExtensionSupportRequired from the agent (its public card says the extension is optional)', () => {
  const cases: [name: string, mount: string, reader?: 'sdk'][] = [
    ['JSON-RPC (-32008)', EXTENSION_MOUNTS.refuses],
    ['JSON-RPC (-32008), SDK reader', EXTENSION_MOUNTS.refuses, 'sdk'],
    ['HTTP+JSON (400, EXTENSION_SUPPORT_REQUIRED)', EXTENSION_MOUNTS.refusesRest],
  ];
  for (const [name, mount, reader] of cases) {
    it(`${name}: an input error naming the extension the agent named, and no second send`, async () => {
      const a2a = createA2A({ identitySecret: SECRET, policy: FAST.policy, ...(reader ? { ports: createSdkPorts({ reader }) } : {}) });
      const from = agents.v1.received.length;
      try {
        const { events, error } = await turn(a2a, agents.v1.url(mount));
        expect(events.map((e) => e.type)).toEqual(['start']);
        expect(error).toBeInstanceOf(A2AError);
        expect(error).toMatchObject({
          kind: 'input',
          retryable: false,
          code: -32008,
          operation: 'stream',
          extensions: [EXTENSIONS.required],
          ...(mount === EXTENSION_MOUNTS.refusesRest ? { status: 400 } : {}),
        });
        expect(error?.message).toContain(EXTENSIONS.required);
        // One refused stream: no fallback to a blocking send (the thread's first message asked for a task left waiting first).
        const rest = mount === EXTENSION_MOUNTS.refusesRest;
        expect(callsTo(agents.v1, mount, from).map((r) => r.method)).toEqual(
          rest ? [expect.stringMatching(/^GET \/tasks/), 'POST /message:stream'] : ['ListTasks', 'SendStreamingMessage'],
        );
      } finally {
        await a2a.close();
      }
    });
  }
});
