import { lastValueFrom, toArray } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { startV11Agent, V11_MOUNTS, type V11Agent, type V11Options } from '../../fixtures/agent-v11.js';
import { createA2A } from '../../src/node/create-a2a.js';
import type { TurnEvent } from '../../src/port/events.js';

// A2A 1.1 (the dev-1.1 draft) where the card offers it, and 1.0 where it does not: the same turns,
// with the agent's generations read (a skipped one reads the task again before the end).

let agent: V11Agent | undefined;
afterEach(async () => {
  await agent?.close();
  agent = undefined;
});

async function turn(options: V11Options, mount: string, text: string): Promise<TurnEvent[]> {
  agent = await startV11Agent({ timing: { tickMs: 20, slowTotalMs: 200 }, ...options });
  const a2a = createA2A({ identitySecret: 'v11-test-secret-0123456789abcdef' });
  const events = await lastValueFrom(
    a2a.turn({ agent: agent.url(mount), handle: 'h', thread: `t-${Math.random()}`, text }).pipe(toArray()),
  );
  await a2a.close();
  return events;
}

const streamVersions = () => agent!.record.of('SendStreamingMessage').map((request) => request.version);
const endOf = (events: TurnEvent[]) => events.at(-1) as Extract<TurnEvent, { type: 'end' }>;
const ticks = (n: number) => Array.from({ length: n }, (_, i) => `tick ${i + 1}`).join('');

describe('A2A 1.1 where the card offers it', () => {
  it('says A2A-Version 1.1 to a 1.1 interface (the one a card offering 1.1 and 1.0 too), 1.0 to a 1.0 one', async () => {
    expect(endOf(await turn({}, V11_MOUNTS.main, 'slow'))).toMatchObject({ outcome: 'completed', text: ticks(10) });
    expect(streamVersions()).toEqual(['1.1']);
    await agent!.close();
    expect(endOf(await turn({}, V11_MOUNTS.dual, 'slow'))).toMatchObject({ outcome: 'completed' });
    expect(streamVersions()).toEqual(['1.1']);
    await agent!.close();
    expect(endOf(await turn({}, V11_MOUNTS.v10, 'slow'))).toMatchObject({ outcome: 'completed', text: ticks(10) });
    expect(streamVersions()).toEqual(['1.0']);
  });

  it('an event the stream left out (a skipped generation): the task read again before the end, the reply whole', async () => {
    const events = await turn({ dropEvent: 5 }, V11_MOUNTS.main, 'slow');
    expect(events.filter((event) => event.type === 'reconcile')).toEqual([expect.objectContaining({ reason: 'generation-gap' })]);
    expect(endOf(events)).toMatchObject({ outcome: 'completed', text: ticks(10) });
  });

  it('an agent whose generations are 0, or repeat, is followed as a 1.0 agent: nothing dropped, no read more', async () => {
    for (const generation of ['zero', 'repeat'] as const) {
      const events = await turn({ generation }, V11_MOUNTS.main, 'slow');
      expect(endOf(events)).toMatchObject({ outcome: 'completed', text: ticks(10) });
      expect(events.filter((event) => event.type === 'reconcile')).toEqual([]);
      await agent!.close();
    }
  });
});
