import { describe, expect, it } from 'vitest';
import type { AgentEvent, Task } from '../../src/port/types.js';
import { ev, task } from '../../src/testing/index.js';
import { coveredBy } from '../../src/turn/ladder/push-follow.js';

// The pushes that came while a read of the task was on its way, and that the read shows already: left out, so nothing shows twice.

const withText = (text: string): Task => task('T', 'working', { artifacts: [{ artifactId: 'A', parts: [{ kind: 'text', text }] }] });
const chunk = (text: string, append = true): AgentEvent => ev.artifact('T', 'A', text, { append });

describe('coveredBy', () => {
  it('leaves out the oldest chunks whose text ends the snapshot, and the statuses among them', () => {
    const held = [ev.status('T', 'working'), chunk('lo '), chunk('wor'), ev.status('T', 'working', 'busy'), chunk('ld')];
    expect(coveredBy(withText('hello wor'), held)).toBe(3);
    expect(coveredBy(withText('hello world'), held)).toBe(5);
  });

  it('leaves out nothing when the first chunk is not in the snapshot yet', () => {
    expect(coveredBy(withText('hel'), [chunk('lo'), chunk('!')])).toBe(0);
    expect(coveredBy(withText(''), [chunk('a')])).toBe(0);
    expect(coveredBy(withText('abc'), [ev.status('T', 'working')])).toBe(0);
  });

  it('reads a whole artifact (not appended) as the artifact from its start, and another artifact as its own', () => {
    expect(coveredBy(withText('hello'), [chunk('hello', false)])).toBe(1);
    expect(coveredBy(withText('hello'), [ev.artifact('T', 'B', 'hello', { append: true })])).toBe(0);
  });
});
