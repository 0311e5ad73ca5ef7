/**
 * gRPC's 401: a call refused with UNAUTHENTICATED before any event is made once more with fresh
 * credentials from the credentials function (told it is a retry), for the caller of the call; a second
 * UNAUTHENTICATED, or credentials with nothing fresh to give, is the auth error.
 */
import { firstValueFrom, lastValueFrom, toArray } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { startGrpcAgent, type GrpcFixtureAgent } from '../../../../fixtures/agent-grpc.js';
import { grpcSupport } from '../../../../src/node/grpc.js';
import type { CredentialsCall, CredentialsOption } from '../../../../src/sdk/http/credentials/options.js';
import { createSdkPorts } from '../../../../src/sdk/ports.js';

const UNAUTHENTICATED = 16;
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

async function setup(credentials: (agent: GrpcFixtureAgent) => CredentialsOption) {
  const agent = await startGrpcAgent();
  closers.push(() => agent.close());
  const ports = createSdkPorts({ grpc: grpcSupport(), credentials: credentials(agent) });
  closers.push(() => ports.close());
  const port = ports(agent.url('/'), { caller: { handle: 'h', thread: 'alice:1' } });
  await firstValueFrom(port.card());
  return { agent, port };
}

const tokensOf = (agent: GrpcFixtureAgent, method: string) =>
  agent.received.filter((r) => r.path.endsWith(`/${method}`)).map((r) => r.headers['authorization']);

describe('gRPC UNAUTHENTICATED', () => {
  it('a stream and a GetTask refused once are made again with fresh headers; the function hears the retry and the caller', async () => {
    const calls: CredentialsCall[] = [];
    let n = 0;
    const { agent, port } = await setup((a) => ({
      [`http://${a.target('/')}`]: (_agent, _card, call) => {
        calls.push(call);
        return { Authorization: `Bearer token-${++n}` };
      },
    }));
    for (const on of ['stream', 'get'] as const) {
      agent.faults('/').plan({ on, fault: { type: 'status', code: UNAUTHENTICATED, details: 'token expired' } });
    }
    const events = await lastValueFrom(port.stream({ text: 'artifacts' }).pipe(toArray()));
    const last = events.at(-1);
    expect(last?.kind === 'task' || last?.kind === 'status').toBe(true);
    expect(tokensOf(agent, 'SendStreamingMessage')).toEqual(['Bearer token-1', 'Bearer token-2']);
    const taskId = events.flatMap((e) => (e.kind === 'task' ? [e.task.id] : e.kind === 'status' ? [e.taskId] : []))[0]!;
    const task = await firstValueFrom(port.getTask(taskId));
    expect(task.status.state).toBe('completed');
    expect(tokensOf(agent, 'GetTask')).toEqual(['Bearer token-3', 'Bearer token-4']);
    expect(calls.map((c) => [c.caller?.thread, c.retry === true])).toEqual([
      ['alice:1', false],
      ['alice:1', true],
      ['alice:1', false],
      ['alice:1', true],
    ]);
  });

  it('a second UNAUTHENTICATED is the auth error; a static token is not sent twice', async () => {
    let n = 0;
    const fresh = await setup((a) => ({ [`http://${a.target('/')}`]: () => ({ Authorization: `Bearer token-${++n}` }) }));
    fresh.agent.faults('/').plan({ on: 'send', fault: { type: 'status', code: UNAUTHENTICATED }, times: 2 });
    const twice = await firstValueFrom(fresh.port.send({ text: 'artifacts' })).catch((e: unknown) => e);
    expect(twice).toMatchObject({ kind: 'auth', grpcCode: UNAUTHENTICATED, retryable: false });
    expect(tokensOf(fresh.agent, 'SendMessage')).toEqual(['Bearer token-1', 'Bearer token-2']);

    const fixed = await setup((a) => ({ [`http://${a.target('/')}`]: { bearer: 'static-grpc-token' } }));
    fixed.agent.faults('/').plan({ on: 'send', fault: { type: 'status', code: UNAUTHENTICATED }, times: 1 });
    const once = await firstValueFrom(fixed.port.send({ text: 'artifacts' })).catch((e: unknown) => e);
    expect(once).toMatchObject({ kind: 'auth', grpcCode: UNAUTHENTICATED });
    expect(tokensOf(fixed.agent, 'SendMessage')).toEqual(['Bearer static-grpc-token']);
  });
});
