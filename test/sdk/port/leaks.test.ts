import { lastValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { handles } from '../../../fixtures/handles.js';
import { runTurn } from '../../../src/turn/turn.js';
import { eventually } from '../../eventually.js';
import { calls, FAST, rig, TARGETS } from '../harness.js';

/** Sockets, servers and timers alive in this process, pipes and HTTP parsers too. */
const ALIVE = /TCP|Timeout|Pipe|HTTP/;

describe('no handle outlives a rig', () => {
  for (const target of TARGETS) {
    it(`${target.name}: completed, recovered and abandoned turns leave no socket, server or timer behind`, async () => {
      const before = handles(ALIVE);
      const r = await rig(target);
      const port = r.ports(r.agent.url(target.main));
      await lastValueFrom(runTurn(port, { text: 'artifacts' }, FAST));
      await lastValueFrom(runTurn(port, { text: 'cut' }, FAST));
      const subscription = runTurn(port, { text: 'slow' }, FAST).subscribe();
      await new Promise((resolve) => setTimeout(resolve, 250));
      subscription.unsubscribe();
      await eventually(() => calls(r.agent, target, 'cancel').length === 1);
      await r.close();
      const leaked = () => [...handles(ALIVE)].filter(([type, n]) => n > (before.get(type) ?? 0));
      await eventually(() => leaked().length === 0, 2_000).catch(() => undefined);
      expect(leaked()).toEqual([]);
    });
  }
});
