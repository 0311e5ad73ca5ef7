/**
 * Push-notification config calls are capability-gated (A2A §3.5; the A2A CLI specification's §13.3):
 * to an agent whose card does not offer push notifications, the SDK ports answer the protocol's
 * PushNotificationNotSupportedError themselves and send nothing; to one whose card offers them, the
 * calls go and the agent's store answers.
 */
import { firstValueFrom, type Observable } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { startTaskAgent, TASK_MOUNTS } from '../../../fixtures/agent-tasks.js';
import type { FixtureAgent } from '../../../fixtures/index.js';
import { isA2AError } from '../../../src/errors.js';
import { type NodeFetch } from '../../../src/node/fetch.js';
import type { A2APort } from '../../../src/port/port.js';
import type { PushConfigPort } from '../../../src/port/push-configs.js';
import { createSdkPorts } from '../../../src/sdk/ports.js';
import { useAgentRig } from '../../agent-rig.js';

let agent: FixtureAgent;
let http: NodeFetch;
useAgentRig(startTaskAgent, (a, h) => ([agent, http] = [a, h]));

const portOf = (mount: string) => createSdkPorts({ fetch: http.fetch })(agent.url(mount)) as A2APort & PushConfigPort;

describe('push-config calls and the card', () => {
  it("the card says no: every call fails as the agent would answer (-32003, kind 'unsupported'), and the agent sees none", async () => {
    const port = portOf(TASK_MOUNTS.evil);
    expect((await firstValueFrom(port.card())).pushNotifications).toBe(false);
    const from = agent.received.length;
    const calls: Observable<unknown>[] = [
      port.createPushConfig({ taskId: 'task-1', url: 'http://127.0.0.1:9/hook' }),
      port.getPushConfig('task-1', 'c1'),
      port.listPushConfigs('task-1'),
      port.deletePushConfig('task-1', 'c1'),
    ];
    for (const call of calls) {
      const error = await firstValueFrom(call).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(isA2AError(error, 'unsupported')).toBe(true);
      expect(error).toMatchObject({ code: -32003, operation: 'push-config', retryable: false });
      expect(String((error as Error).message)).toContain('capabilities.pushNotifications');
    }
    expect(agent.received.slice(from).filter((r) => r.mount === TASK_MOUNTS.evil)).toEqual([]);
  });

  it('the card says yes: the calls reach the agent (its store answers: nothing for an unknown task)', async () => {
    const port = portOf(TASK_MOUNTS.push);
    expect((await firstValueFrom(port.card())).pushNotifications).toBe(true);
    const from = agent.received.length;
    const answer = await firstValueFrom(port.listPushConfigs('no-such-task')).then(
      (page) => page,
      (e: unknown) => e,
    );
    expect(agent.received.slice(from).map((r) => r.method)).toContain('ListTaskPushNotificationConfigs');
    // The SDK's server answers TaskNotFound for a task it does not know, or an empty page: either way, the agent's answer.
    expect(isA2AError(answer, 'unsupported')).toBe(false);
  });
});
