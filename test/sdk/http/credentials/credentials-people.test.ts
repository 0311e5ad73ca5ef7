import { firstValueFrom, lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { OAUTH_MOUNTS, PERSON_TOKENS, type OAuthAgents } from '../../../../fixtures/agent-oauth.js';
import { REPLY, type ReceivedRequest } from '../../../../fixtures/index.js';
import { type OAuthServer } from '../../../../fixtures/oauth-provider.js';
import type { A2AError } from '../../../../src/errors.js';
import type { CredentialsCall } from '../../../../src/sdk/http/credentials/options.js';
import { client, completed, failed } from '../../credentials-kit.js';
import { endOf, FAST } from '../../harness.js';
import { createA2A } from '../../../../src/node/create-a2a.js';
import { useOAuthAgents } from '../../../agent-rig.js';

// Per-person credentials, tried as an attacker would: two people on one agent, each call of each turn must
// carry its own person's token and no one else's; a person the gateway cannot sign in fails alone.

let server: OAuthServer;
let agents: OAuthAgents;
useOAuthAgents((s, a) => ([server, agents] = [s, a]));

/** The gateway's side: a thread `person:chat` is that person's; their token from its store; mallory has none. */
function gatewayCredentials(calls: CredentialsCall[]) {
  return async (_agent: string, _card: unknown, call: CredentialsCall): Promise<Record<string, string>> => {
    calls.push(call);
    if (call.caller === undefined) return {};
    const person = call.caller.thread.split(':')[0]!;
    const token = PERSON_TOKENS[person];
    if (token === undefined) throw new Error(`no sign-in for ${person}`);
    return { Authorization: `Bearer ${token}` };
  };
}

/** Whose a recorded call is: by the contextId it carries, or the task id it names. */
function ownerOf(request: ReceivedRequest, contexts: Map<string, string>, tasks: Map<string, string>): string | undefined {
  const params = (request.params ?? {}) as { contextId?: string; id?: string; message?: { contextId?: string } };
  const query = new URL(request.path, 'http://agent').searchParams.get('contextId') ?? undefined; // HTTP+JSON's ListTasks
  const context = params.message?.contextId ?? params.contextId ?? query;
  if (context !== undefined) return contexts.get(context);
  const id = params.id ?? /\/tasks\/([^/:?]+)/.exec(request.method)?.[1]; // HTTP+JSON names the task in its path
  return id === undefined ? undefined : tasks.get(id);
}

describe('a credentials function that knows the person', () => {
  it("each call of each person's turn carries that person's token only (streams, resubscribes, ListTasks, history, cancel)", async () => {
    const calls: CredentialsCall[] = [];
    const a2a = client({ [agents.v1.baseUrl]: gatewayCredentials(calls) });
    const agent = agents.v1.url(OAUTH_MOUNTS.people);
    const from = agents.v1.received.length;
    const seen = agents.seen.length;
    const people = ['alice', 'bob'];
    const contexts = new Map<string, string>();
    const tasks = new Map<string, string>();
    try {
      for (const person of people) contexts.set(await a2a.contextId('assistant', `${person}:chat`), person);
      // Interleaved: both people's turns at once, each breaking mid-stream (a resubscribe), twice.
      for (const text of ['drop', 'artifacts']) {
        const ends = await Promise.all(
          people.map((person) =>
            lastValueFrom(a2a.turn({ agent, handle: 'assistant', thread: `${person}:chat`, text }).pipe(toArray())).then((events) => {
              const end = endOf(events);
              if (end.taskId !== undefined) tasks.set(end.taskId, person);
              return end;
            }),
          ),
        );
        for (const end of ends) expect(end.outcome).toBe('completed');
      }
      const page = await firstValueFrom(a2a.history({ agent, handle: 'assistant', thread: 'bob:chat' }));
      expect(page.exchanges.length).toBe(2);
      const [aliceTask] = [...tasks].find(([, person]) => person === 'alice')!;
      await firstValueFrom(a2a.cancel({ agent, handle: 'assistant', thread: 'alice:chat', taskId: aliceTask })).catch(() => undefined);
    } finally {
      await a2a.close();
    }
    const received = agents.v1.received.slice(from).filter((r) => r.mount === OAUTH_MOUNTS.people && !r.method.endsWith('agent-card.json'));
    expect(new Set(received.map((r) => r.method))).toEqual(
      new Set(['ListTasks', 'SendStreamingMessage', 'SubscribeToTask', 'GetTask', 'CancelTask']),
    );
    for (const request of received) {
      const owner = ownerOf(request, contexts, tasks);
      expect([request.method, owner]).toEqual([request.method, expect.stringMatching(/^(alice|bob)$/)]);
      expect([request.method, owner, request.headers['authorization']]).toEqual([request.method, owner, `Bearer ${PERSON_TOKENS[owner!]}`]);
    }
    expect(agents.seen.slice(seen).every((s) => s.accepted)).toBe(true);
    // The function heard whose call it made, and the card, every time; the card fetch asks nothing of it.
    expect(calls.length).toBe(received.length);
    for (const call of calls) {
      expect(call.caller?.handle).toBe('assistant');
      expect(call.card?.name).toBe('v1-people');
      expect(call.agent).toBe(`${agent}.well-known/agent-card.json`);
    }
  });

  it("a person the function cannot sign in fails alone: the others' turns complete, nothing of theirs goes without a token", async () => {
    const calls: CredentialsCall[] = [];
    const a2a = client({ [agents.v1.baseUrl]: gatewayCredentials(calls) });
    const agent = agents.v1.url(OAUTH_MOUNTS.people);
    const seen = agents.seen.length;
    let results;
    try {
      results = await Promise.all(
        ['alice', 'mallory', 'bob'].map((person) =>
          lastValueFrom(a2a.turn({ agent, handle: 'assistant', thread: `${person}:chat-2`, text: 'artifacts' }).pipe(toArray())).catch(
            (error: unknown) => error as A2AError,
          ),
        ),
      );
    } finally {
      await a2a.close();
    }
    expect(completed(results[0]!)).toBe(REPLY.artifacts);
    expect(completed(results[2]!)).toBe(REPLY.artifacts);
    const error = failed(results[1]!);
    expect(error).toMatchObject({ kind: 'auth', retryable: false });
    expect(error.message).toContain('the credentials function for');
    // Mallory's calls never left: every request the agent judged carried a good token.
    expect(agents.seen.slice(seen).every((s) => s.accepted)).toBe(true);
  });

  it("over HTTP+JSON too (every call through the SDK's transport): each call with its person's token", async () => {
    const calls: CredentialsCall[] = [];
    const a2a = createA2A({
      identitySecret: 'people test identity secret 0123456789',
      policy: FAST.policy,
      credentials: { [agents.v1.baseUrl]: gatewayCredentials(calls) },
      bindings: { [agents.v1.baseUrl]: 'HTTP+JSON' },
    });
    const agent = agents.v1.url(OAUTH_MOUNTS.people);
    const from = agents.v1.received.length;
    const contexts = new Map<string, string>();
    const tasks = new Map<string, string>();
    try {
      for (const person of ['alice', 'bob']) contexts.set(await a2a.contextId('assistant', `${person}:rest`), person);
      const ends = await Promise.all(
        ['alice', 'bob'].map((person) =>
          lastValueFrom(a2a.turn({ agent, handle: 'assistant', thread: `${person}:rest`, text: 'drop' }).pipe(toArray())).then((events) => {
            const end = endOf(events);
            if (end.taskId !== undefined) tasks.set(end.taskId, person);
            return end;
          }),
        ),
      );
      for (const end of ends) expect([end.outcome, end.text]).toEqual(['completed', REPLY.drop]);
    } finally {
      await a2a.close();
    }
    const rest = agents.v1.received.slice(from).filter((r) => r.mount === OAUTH_MOUNTS.people && !r.method.endsWith('agent-card.json'));
    expect(rest.map((r) => r.method)).toEqual(expect.arrayContaining(['POST /message:stream']));
    for (const request of rest) {
      const owner = ownerOf(request, contexts, tasks);
      expect([request.method, owner, request.headers['authorization']]).toEqual([
        request.method,
        expect.stringMatching(/^(alice|bob)$/),
        `Bearer ${PERSON_TOKENS[owner ?? '']}`,
      ]);
    }
    expect(calls.filter((c) => c.card !== undefined).every((c) => c.caller !== undefined)).toBe(true);
  });

  it('the old (agent, card) shape still works, and with card: true the card fetch calls it without a caller or a card', async () => {
    const seenArgs: unknown[][] = [];
    const a2a = client({
      [agents.v1.baseUrl]: {
        card: true,
        headers: (...args: unknown[]) => {
          seenArgs.push(args);
          return { Authorization: `Bearer ${PERSON_TOKENS['alice']!}` };
        },
      },
    });
    try {
      const events = await lastValueFrom(
        a2a.turn({ agent: agents.v1.url(OAUTH_MOUNTS.people), handle: 'h', thread: 'alice:3', text: 'artifacts' }).pipe(toArray()),
      );
      expect(completed(events)).toBe(REPLY.artifacts);
    } finally {
      await a2a.close();
    }
    const [cardFetch, ...rest] = seenArgs;
    expect(cardFetch![1]).toBeUndefined();
    expect(cardFetch![2]).toEqual({ agent: expect.stringContaining('agent-card.json'), card: undefined });
    for (const args of rest) expect(args[2]).toMatchObject({ caller: { handle: 'h', thread: 'alice:3' } });
  });
});
