/**
 * An SDK 1.3 agent that keeps its own record of the turns it runs: each message's text in the order
 * it arrived, how many ran at once (counted from the message's arrival to its final status) and the
 * most that ever did. Every message is answered after `workMs(text)` with `done: <text>`.
 */
import { fixtureSkill } from '../../fixtures/behaviours.js';
import { v1Card, v1Interfaces } from '../../fixtures/cards.js';
import { startHost, type Host } from '../../fixtures/http-host.js';
import { mountV1 } from '../../fixtures/mount-v1.js';

/** What the agent saw. */
export interface AgentRecord {
  /** Each message's text, in the order it arrived. */
  arrived: string[];
  /** Each finished message's text, in the order it finished. */
  finished: string[];
  /** Turns running now. */
  running: number;
  /** The most that ever ran at once. */
  highest: number;
}

/** The counting agent on 127.0.0.1 (a free port), at `host.agent.url('/')`, and its record. */
export async function startCountingAgent(workMs: (text: string) => number): Promise<{ host: Host; record: AgentRecord }> {
  const record: AgentRecord = { arrived: [], finished: [], running: 0, highest: 0 };
  const host = await startHost();
  const info = {
    name: 'counting agent',
    description: 'Counts the turns it runs at once.',
    version: '1.0.0',
    streaming: true,
    skills: [fixtureSkill()],
  };
  mountV1(host, {
    mount: '/',
    card: v1Card(info, v1Interfaces(host, '/', ['JSONRPC'])),
    bindings: ['JSONRPC'],
    script: {
      cancelMessage: 'canceled',
      behaviour: async (t) => {
        record.arrived.push(t.text);
        record.running++;
        record.highest = Math.max(record.highest, record.running);
        try {
          t.task('submitted');
          t.status('working');
          await t.sleep(workMs(t.text));
          t.artifact('answer', `done: ${t.text}`, { append: false, lastChunk: true });
          // Counted until the final status is out: the client cannot hear it before this line ran.
          t.status('completed');
        } finally {
          record.running--;
          record.finished.push(t.text);
        }
      },
    },
  });
  return { host, record };
}
