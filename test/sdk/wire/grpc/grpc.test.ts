/**
 * What only a gRPC agent shows (every ladder rung runs on gRPC in the shared cells: shapes, recovery,
 * cancel, hygiene, leaks): the server sees an abandoned call cancelled, the metadata every call
 * carries (`a2a-version`, the turn's `traceparent`, the credentials), a gRPC interface chosen only
 * when it wins and loaded only then, the `bindings` option, the errors of a client without gRPC.
 */
import { firstValueFrom, lastValueFrom } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentInterface } from '@a2a-js/sdk';
import { startGrpcAgent, type GrpcFixtureAgent } from '../../../../fixtures/agent-grpc.js';
import { FIXTURE_SCRIPT, fixtureSkill } from '../../../../fixtures/behaviours.js';
import { grpcInterface, v03Card, v1Card } from '../../../../fixtures/cards.js';
import { PATHS, startHost } from '../../../../fixtures/http-host.js';
import { REPLY, type FixtureAgent } from '../../../../fixtures/index.js';
import { mountGrpcV03, mountGrpcV1 } from '../../../../fixtures/mount-grpc.js';
import { createA2A } from '../../../../src/node/create-a2a.js';
import { grpcSupport } from '../../../../src/node/grpc.js';
import { loadGrpcWith } from '../../../../src/sdk/wire/bindings/grpc/node.js';
import type { GrpcSupport } from '../../../../src/sdk/wire/bindings/grpc/support.js';
import { createSdkPorts, type SdkPortOptions, type SdkPorts } from '../../../../src/sdk/ports.js';
import { runTurn } from '../../../../src/turn/turn.js';
import { eventually } from '../../../eventually.js';
import { collect, endOf, FAST, folded } from '../../harness.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

async function grpcAgent(version: '1.0' | '0.3' = '1.0'): Promise<GrpcFixtureAgent> {
  const agent = await startGrpcAgent({ version });
  closers.push(() => agent.close());
  return agent;
}

function ports(options: SdkPortOptions = {}): SdkPorts {
  const made = createSdkPorts({ grpc: grpcSupport(), ...options });
  closers.push(() => made.close());
  return made;
}

/** The agent's gRPC calls of one method (the last segment of the call's path). */
const grpcCalls = (agent: FixtureAgent, method: string) => agent.received.filter((r) => r.path.endsWith(`A2AService/${method}`));

/** A v1.0 agent whose card lists a JSON-RPC interface first and its gRPC one second (only gRPC is served). */
async function twoInterfaceAgent(): Promise<FixtureAgent> {
  const host = await startHost();
  closers.push(() => host.agent.close());
  const info = { name: 'both', description: 'JSON-RPC and gRPC', version: '1.0.0', streaming: true, skills: [fixtureSkill()] };
  const jsonRpc: AgentInterface = { url: host.url('/', PATHS.jsonRpc), protocolBinding: 'JSONRPC', protocolVersion: '1.0', tenant: '' };
  await mountGrpcV1(host, { mount: '/', script: FIXTURE_SCRIPT, card: (target) => v1Card(info, [jsonRpc, grpcInterface(target)]) });
  return host.agent;
}

/** gRPC support that counts its loads. */
function counted(): GrpcSupport & { loads: number } {
  const real = grpcSupport();
  const support = { loads: 0, load: () => (support.loads++, real.load()) };
  return support;
}

for (const version of ['1.0', '0.3'] as const) {
  describe(`v${version} gRPC: an abandoned turn`, () => {
    it('the server sees the stream cancelled, and CancelTask arrives once', async () => {
      const agent = await grpcAgent(version);
      // An agent slow to answer CancelTask (its stream would otherwise end, canceled, before the client's
      // cancel reaches it) and a stream that goes quiet after the first text (so only the cancel ends it).
      agent.faults('/').plan({ on: 'cancel', fault: { type: 'hang' } });
      agent.faults('/').plan({ on: 'stream', fault: { type: 'stall', afterEvents: 3, ms: 60_000 } });
      const port = ports()(agent.url('/'));
      await new Promise<void>((resolve, reject) => {
        const subscription = runTurn(port, { text: 'slow' }, FAST).subscribe({
          next: (event) => {
            if (event.type !== 'text') return;
            subscription.unsubscribe();
            resolve();
          },
          error: reject,
        });
      });
      await eventually(
        () => grpcCalls(agent, 'CancelTask').length === 1 && grpcCalls(agent, 'SendStreamingMessage')[0]?.cancelled === true,
      );
      expect(grpcCalls(agent, 'SendStreamingMessage')).toMatchObject([{ cancelled: true }]);
    });

    it('at the turn deadline too: the stream cancelled, CancelTask once, a timeout', async () => {
      const agent = await grpcAgent(version);
      agent.faults('/').plan({ on: 'cancel', fault: { type: 'hang' } });
      const turn$ = runTurn(ports()(agent.url('/')), { text: 'slow' }, { policy: { ...FAST.policy, turnTimeoutMs: 400 } });
      await expect(lastValueFrom(turn$)).rejects.toMatchObject({ kind: 'timeout', phase: 'turn' });
      await eventually(() => grpcCalls(agent, 'CancelTask').length === 1);
      expect(grpcCalls(agent, 'SendStreamingMessage')).toMatchObject([{ cancelled: true }]);
    });

    it('a completed stream is not cancelled', async () => {
      const agent = await grpcAgent(version);
      expect(endOf(await collect(runTurn(ports()(agent.url('/')), { text: 'artifacts' }, FAST)))).toMatchObject({ text: REPLY.artifacts });
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(grpcCalls(agent, 'SendStreamingMessage')[0]?.cancelled).toBeUndefined();
      expect(grpcCalls(agent, 'CancelTask')).toEqual([]);
    });
  });

  describe(`v${version} gRPC: metadata on every call`, () => {
    it("a2a-version, the turn's traceparent, and the credentials configured for the gRPC interface's origin", async () => {
      const agent = await grpcAgent(version);
      const traceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
      const made = ports({ credentials: { [`http://${agent.target('/')}`]: { bearer: 'grpc-token', headers: { 'X-Api-Token': 'k1' } } } });
      const events = await collect(runTurn(made(agent.url('/'), { headers: { traceparent } }), { text: 'drop' }, FAST));
      expect(endOf(events)).toMatchObject({ outcome: 'completed', text: REPLY.drop });
      const calls = agent.received.filter((r) => r.path.includes('A2AService/'));
      expect(calls.map((r) => r.method)).toEqual(
        expect.arrayContaining(['SendStreamingMessage', version === '1.0' ? 'SubscribeToTask' : 'TaskSubscription']),
      );
      for (const call of calls) {
        expect(call.headers).toMatchObject({
          'a2a-version': version,
          traceparent,
          authorization: 'Bearer grpc-token',
          'x-api-token': 'k1',
        });
      }
    });

    it('a credentials function is called for every call: its fresh headers go as metadata', async () => {
      const agent = await grpcAgent(version);
      let n = 0;
      const made = ports({ credentials: { [`http://${agent.target('/')}`]: () => ({ Authorization: `Bearer token-${++n}` }) } });
      await collect(runTurn(made(agent.url('/')), { text: 'drop' }, FAST));
      const tokens = agent.received.filter((r) => r.path.includes('A2AService/')).map((r) => r.headers['authorization']);
      expect(tokens.length).toBeGreaterThanOrEqual(2);
      expect(new Set(tokens).size).toBe(tokens.length);
    });

    it('credentials that cannot be gRPC metadata (an API key in the query, a header name that is no key) fail the call with an auth error, no value shown', async () => {
      const agent = await grpcAgent(version);
      for (const entry of [{ apiKey: { value: 'k-s3cret', in: 'query', name: 'key' } }, { headers: { 'X!Key': 'k-s3cret' } }] as const) {
        const made = ports({ credentials: { [`http://${agent.target('/')}`]: entry } });
        const error = (await lastValueFrom(runTurn(made(agent.url('/')), { text: 'artifacts' }, FAST)).then(
          () => undefined,
          (e: unknown) => e,
        )) as Error;
        expect(error).toMatchObject({ kind: 'auth', retryable: false });
        expect(JSON.stringify(error) + error.message).not.toContain('s3cret');
      }
      expect(agent.received.filter((r) => r.path.includes('A2AService/'))).toEqual([]);
    });

    it("credentials of the card's origin do not go to a gRPC interface on another origin (another port)", async () => {
      const agent = await grpcAgent(version);
      const made = ports({ credentials: { [agent.baseUrl]: { bearer: 'card-origin-token' } } });
      await collect(runTurn(made(agent.url('/')), { text: 'artifacts' }, FAST));
      for (const call of agent.received) expect(call.headers['authorization']).toBeUndefined();
    });
  });
}

describe('gRPC chosen, loaded, forced', () => {
  it('a card listing JSON-RPC and gRPC at one version: JSON-RPC is chosen and gRPC never loaded', async () => {
    const agent = await twoInterfaceAgent();
    const support = counted();
    const made = ports({ grpc: support });
    expect(await firstValueFrom(made(agent.url('/')).card())).toMatchObject({ transport: 'JSONRPC' });
    expect(support.loads).toBe(0);
  });

  it("the bindings option forces gRPC for the agent: its turn goes over gRPC, the summary says GRPC and the interface's grpc:// address", async () => {
    const agent = await twoInterfaceAgent();
    const made = ports({ bindings: { [agent.url('/')]: 'GRPC' } });
    const port = made(agent.url('/'));
    const card = await firstValueFrom(port.card());
    expect(card).toMatchObject({ transport: 'GRPC', protocolVersion: '1.0' });
    expect(card.url).toMatch(/^grpc:\/\/127\.0\.0\.1:\d+$/);
    const events = await collect(runTurn(port, { text: 'artifacts' }, FAST));
    expect(folded(events)).toBe(REPLY.artifacts);
    expect(grpcCalls(agent, 'SendStreamingMessage')).toHaveLength(1);
  });

  it('a gRPC-only card without gRPC support (the core entry, as in a browser) is a card error saying gRPC is Node-only', async () => {
    const agent = await grpcAgent();
    const port = createSdkPorts()(agent.url('/'));
    await expect(firstValueFrom(port.card())).rejects.toMatchObject({
      kind: 'card',
      message: expect.stringContaining('gRPC is Node-only'),
    });
  });

  it('a gRPC-only card when @grpc/grpc-js is not installed: a card error naming the packages to install; nothing is called', async () => {
    const agent = await grpcAgent();
    const missing = Object.assign(new Error("Cannot find package '@grpc/grpc-js' imported from …"), { code: 'ERR_MODULE_NOT_FOUND' });
    const port = ports({ grpc: loadGrpcWith(() => Promise.reject(missing)) })(agent.url('/'));
    const error = await lastValueFrom(runTurn(port, { text: 'artifacts' }, FAST)).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'card', message: expect.stringContaining('npm install @grpc/grpc-js @bufbuild/protobuf') });
    expect((error as Error).cause).toMatchObject({ cause: missing });
    expect(agent.received.filter((r) => r.path.includes('A2AService/'))).toEqual([]);
  });

  it("a card naming its gRPC server's bind address (0.0.0.0) is called on the card's host", async () => {
    const host = await startHost();
    closers.push(() => host.agent.close());
    const info = { name: 'bound', description: 'd', version: '1.0.0', streaming: true, skills: [fixtureSkill()] };
    await mountGrpcV1(host, {
      mount: '/',
      script: FIXTURE_SCRIPT,
      card: (target) => v1Card(info, [grpcInterface(target.replace('127.0.0.1', '0.0.0.0'))]),
    });
    const port = ports()(host.agent.url('/'));
    expect((await firstValueFrom(port.card())).url).toMatch(/^grpc:\/\/127\.0\.0\.1:\d+$/);
    expect(folded(await collect(runTurn(port, { text: 'message' }, FAST)))).toBe(REPLY.message);
  });
});

describe('a card naming the wrong generation, over gRPC', () => {
  it('a v0.3 gRPC agent whose card says 1.0: UNIMPLEMENTED on the first call, once more in v0.3, the whole reply', async () => {
    const host = await startHost();
    closers.push(() => host.agent.close());
    const info = { name: 'mislabeled', description: 'd', version: '0.3.14', streaming: true, skills: [fixtureSkill()] };
    await mountGrpcV03(host, {
      mount: '/',
      script: FIXTURE_SCRIPT,
      card: (target) => ({ ...v03Card(info, host, '/'), url: target, preferredTransport: 'GRPC', protocolVersion: '1.0' }),
    });
    const port = ports()(host.agent.url('/'));
    expect(await firstValueFrom(port.card())).toMatchObject({ transport: 'GRPC', protocolVersion: '1.0' });
    const events = await collect(runTurn(port, { text: 'artifacts' }, FAST));
    expect(endOf(events)).toMatchObject({ outcome: 'completed', text: REPLY.artifacts });
    expect(events.filter((e) => e.type === 'fallback')).toEqual([]);
    expect(grpcCalls(host.agent, 'SendStreamingMessage')).toHaveLength(1);
  });
});

describe('createA2A (Node) and gRPC', () => {
  it('speaks to a gRPC-only agent with no option, and close() closes its channels', async () => {
    const agent = await grpcAgent();
    const a2a = createA2A({ identitySecret: 'a-secret-of-at-least-16-bytes', policy: FAST.policy });
    const events = await collect(a2a.turn({ agent: agent.url('/'), handle: 'h', thread: 't', text: 'status' }));
    expect(endOf(events)).toMatchObject({ outcome: 'completed', text: REPLY.status });
    await a2a.close();
  });

  for (const version of ['1.0', '0.3'] as const) {
    it(`v${version}: a stream that never ends after its terminal event → the turn ends with its reply, the call is cancelled, close() is prompt`, async () => {
      const agent = await grpcAgent(version);
      agent.faults('/').plan({ on: 'stream', fault: { type: 'hold' } });
      // Bounds far past the test's own: only the terminal event can end the turn in time.
      const policy = { ...FAST.policy, idleTimeoutMs: 60_000, turnTimeoutMs: 60_000 };
      const a2a = createA2A({ identitySecret: 'a-secret-of-at-least-16-bytes', policy });
      const started = Date.now();
      const events = await collect(a2a.turn({ agent: agent.url('/'), handle: 'h', thread: `held-${version}`, text: 'artifacts' }));
      expect(endOf(events)).toMatchObject({ outcome: 'completed', text: REPLY.artifacts });
      expect(Date.now() - started).toBeLessThan(5_000);
      const closing = Date.now();
      await a2a.close();
      expect(Date.now() - closing).toBeLessThan(5_000);
      await eventually(() => grpcCalls(agent, 'SendStreamingMessage')[0]?.cancelled === true);
      expect(grpcCalls(agent, 'CancelTask')).toEqual([]);
    });

    it(`v${version}: close() while a turn waits on a stream gone quiet ends the turn (CancelTask once) and resolves promptly`, async () => {
      const agent = await grpcAgent(version);
      agent.faults('/').plan({ on: 'stream', fault: { type: 'stall', afterEvents: 3, ms: 60_000 } });
      const policy = { ...FAST.policy, idleTimeoutMs: 60_000, turnTimeoutMs: 60_000 };
      const a2a = createA2A({ identitySecret: 'a-secret-of-at-least-16-bytes', policy });
      const ended = new Promise<unknown>((resolve) => {
        a2a.turn({ agent: agent.url('/'), handle: 'h', thread: `quiet-${version}`, text: 'slow' }).subscribe({
          next: (event) => event.type === 'text' && resolve(undefined),
          error: resolve,
          complete: () => resolve(undefined),
        });
      });
      await ended;
      const closing = Date.now();
      await a2a.close();
      expect(Date.now() - closing).toBeLessThan(5_000);
      await eventually(() => grpcCalls(agent, 'SendStreamingMessage')[0]?.cancelled === true);
      expect(grpcCalls(agent, 'CancelTask')).toHaveLength(1);
    });
  }
});

describe('resuming over gRPC (a task left running by another process)', () => {
  const TIMING = { tickMs: 50, slowTotalMs: 600 };
  const SLOW = Array.from({ length: 12 }, (_, i) => `tick ${i + 1}`).join('');

  for (const [version, byList] of [
    ['1.0', false],
    ['1.0', true],
    ['0.3', false],
  ] as const) {
    it(`v${version}: ${byList ? 'found with ListTasks by the thread' : 'by its id'}; the whole reply once, nothing cancelled`, async () => {
      const agent = await startGrpcAgent({ version, timing: TIMING });
      closers.push(() => agent.close());
      const options = { identitySecret: 'a-secret-of-at-least-16-bytes', policy: FAST.policy };
      const first = createA2A(options);
      const thread = { agent: agent.url('/'), handle: 'h', thread: `resume-${version}-${byList}` };
      let taskId = '';
      await new Promise<void>((resolve, reject) => {
        const subscription = first.turn({ ...thread, text: 'slow', onLeave: 'detach' }).subscribe({
          next: (event) => {
            if (event.type === 'task') taskId = event.taskId;
            if (event.type !== 'text') return;
            subscription.unsubscribe();
            resolve();
          },
          error: reject,
        });
      });
      await first.close();
      const second = createA2A(options);
      try {
        const events = await collect(second.resume(byList ? thread : { ...thread, taskId }));
        expect(endOf(events)).toMatchObject({ outcome: 'completed', text: SLOW, taskId });
        expect(folded(events)).toBe(SLOW);
      } finally {
        await second.close();
      }
      expect(grpcCalls(agent, 'CancelTask')).toEqual([]);
      if (byList) expect(grpcCalls(agent, 'ListTasks').length).toBeGreaterThanOrEqual(1);
    });
  }
});
