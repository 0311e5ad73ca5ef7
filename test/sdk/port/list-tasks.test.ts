import { lastValueFrom } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INPUT_QUESTION, startV03Agent, startV1Agent, type FixtureAgent } from '../../../fixtures/index.js';
import { createNodeFetch, type NodeFetch } from '../../../src/node/fetch.js';
import { createSdkPorts } from '../../../src/sdk/ports.js';
import { runTurn } from '../../../src/turn/turn.js';
import { collect, endOf, FAST } from '../harness.js';

describe("ListTasks on the port: one conversation's tasks", () => {
  let v1: FixtureAgent;
  let v03: FixtureAgent;
  let http: NodeFetch;
  beforeAll(async () => {
    [v1, v03] = await Promise.all([startV1Agent(), startV03Agent()]);
    http = createNodeFetch();
  });
  afterAll(async () => {
    await Promise.all([v1.close(), v03.close(), http.close()]);
  });

  it('v1.0: the tasks of the contextId, with their states, and none of another conversation', async () => {
    const ports = createSdkPorts({ fetch: http.fetch });
    const url = v1.url('/');
    const asked = endOf(await collect(runTurn(ports(url), { text: 'input', contextId: 'ctx-list-1' }, FAST)));
    expect(asked).toMatchObject({ outcome: 'input-required', text: INPUT_QUESTION });
    const done = endOf(await collect(runTurn(ports(url), { text: 'artifacts', contextId: 'ctx-list-1' }, FAST)));
    await collect(runTurn(ports(url), { text: 'artifacts', contextId: 'ctx-list-other' }, FAST));
    const { tasks } = await lastValueFrom(ports(url).listTasks!('ctx-list-1', { pageSize: 10 }));
    expect(tasks.map((t) => [t.id, t.status.state]).sort()).toEqual(
      [
        [asked.taskId, 'input-required'],
        [done.taskId, 'completed'],
      ].sort(),
    );
    expect(tasks.every((t) => t.contextId === 'ctx-list-1' && t.artifacts.length === 0)).toBe(true);
    const { tasks: since } = await lastValueFrom(
      ports(url).listTasks!('ctx-list-1', { statusTimestampAfter: new Date(Date.now() + 60_000).toISOString() }),
    );
    expect(since).toEqual([]);
  });

  it('v0.3: no ListTasks, an unsupported error without a request', async () => {
    const ports = createSdkPorts({ fetch: http.fetch });
    const before = v03.received.length;
    await expect(lastValueFrom(ports(v03.url('/')).listTasks!('ctx'))).rejects.toMatchObject({
      kind: 'unsupported',
      operation: 'list-tasks',
    });
    expect(v03.received.slice(before).filter((r) => !r.method.startsWith('GET'))).toEqual([]);
  });
});
