import { lastValueFrom, tap } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { runTurn } from '../../../src/turn/turn.js';
import type { Task } from '../../../src/port/types.js';
import { eventually } from '../../eventually.js';
import { calls, FAST, useTargetRig, TARGETS, type Rig } from '../harness.js';

for (const target of TARGETS) {
  describe(`${target.name}: cancel`, () => {
    let r: Rig;
    useTargetRig(target, (x) => (r = x));

    const finalState = async (taskId: string): Promise<Task['status']['state']> =>
      (await lastValueFrom(r.ports(r.agent.url(target.main)).getTask(taskId))).status.state;

    it('unsubscribing mid-stream sends CancelTask once and the task ends CANCELED', async () => {
      const port = r.ports(r.agent.url(target.main));
      let taskId = '';
      await new Promise<void>((resolve, reject) => {
        const subscription = runTurn(port, { text: 'slow' }, FAST).subscribe({
          next: (event) => {
            if (event.type === 'task') taskId = event.taskId;
            if (event.type === 'text') {
              subscription.unsubscribe();
              resolve();
            }
          },
          error: reject,
        });
      });
      await eventually(() => calls(r.agent, target, 'cancel').length === 1);
      await new Promise((resolve) => setTimeout(resolve, 150)); // no second cancel arrives
      expect(calls(r.agent, target, 'cancel')).toHaveLength(1);
      expect(JSON.stringify(calls(r.agent, target, 'cancel')[0])).toContain(taskId);
      expect(await finalState(taskId)).toBe('canceled');
    });

    it('the turn deadline aborts, sends CancelTask once, and errors with a timeout', async () => {
      const port = r.ports(r.agent.url(target.main));
      let taskId = '';
      const turn$ = runTurn(port, { text: 'slow' }, { policy: { ...FAST.policy, turnTimeoutMs: 400 } }).pipe(
        tap((event) => {
          if (event.type === 'task') taskId = event.taskId;
        }),
      );
      await expect(lastValueFrom(turn$)).rejects.toMatchObject({ kind: 'timeout', phase: 'turn' });
      await eventually(() => calls(r.agent, target, 'cancel').length === 1);
      expect(taskId).not.toBe('');
      expect(await finalState(taskId)).toBe('canceled');
      expect(calls(r.agent, target, 'cancel')).toHaveLength(1);
    });

    it('a completed turn sends no CancelTask', async () => {
      await lastValueFrom(runTurn(r.ports(r.agent.url(target.main)), { text: 'artifacts' }, FAST));
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(calls(r.agent, target, 'cancel')).toEqual([]);
    });
  });
}
