import { lastValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { runTurn } from '../../src/turn/turn.js';
import { eventually } from '../eventually.js';
import { calls, FAST, rig, TARGETS } from './harness.js';

/** Sockets, servers and timers alive in this process, by type. */
function handles(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const type of process.getActiveResourcesInfo()) {
    if (/TCP|Timeout|Pipe|HTTP/.test(type)) counts.set(type, (counts.get(type) ?? 0) + 1);
  }
  return counts;
}

describe('no handle outlives a rig', () => {
  for (const target of TARGETS) {
    it(`${target.name}: completed, recovered and abandoned turns leave no socket, server or timer behind`, async () => {
      const before = handles();
      const r = await rig(target);
      const port = r.ports(r.agent.url(target.main));
      await lastValueFrom(runTurn(port, { text: 'artifacts' }, FAST));
      await lastValueFrom(runTurn(port, { text: 'cut' }, FAST));
      const subscription = runTurn(port, { text: 'slow' }, FAST).subscribe();
      await new Promise((resolve) => setTimeout(resolve, 250));
      subscription.unsubscribe();
      await eventually(() => calls(r.agent, target, 'cancel').length === 1);
      await r.close();
      const leaked = () => [...handles()].filter(([type, n]) => n > (before.get(type) ?? 0));
      await eventually(() => leaked().length === 0, 2_000).catch(() => undefined);
      expect(leaked()).toEqual([]);
    });
  }
});
