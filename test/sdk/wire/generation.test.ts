import { describe, expect, it } from 'vitest';
import { pushEvent } from '../../../src/sdk/push-payload.js';
import { generationIn } from '../../../src/sdk/wire/mapping/generation.js';
import { frameValue } from '../../../src/sdk/wire/reader/frame.js';
import { fromSdkEvent } from '../../../src/sdk/wire/mapping/from-sdk.js';
import { withGeneration } from '../../../src/sdk/wire/mapping/generation.js';
import { fastEvent } from '../../../src/sdk/wire/reader/fast.js';
import { scanTextChunk } from '../../../src/sdk/wire/reader/scan.js';

// A2A 1.1 (draft): `generation` on a task and its updates, read from the JSON the SDK's 1.0 codec does not read.

const update = (generation: unknown) => ({
  statusUpdate: { taskId: 't', contextId: 'c', status: { state: 'TASK_STATE_WORKING' }, generation },
});
const EVENTS = { map: fromSdkEvent, fast: fastEvent, scan: scanTextChunk, stamp: withGeneration };

describe('generation on the wire', () => {
  it('is read as ProtoJSON writes an int64 (a string) and as a number; anything else is none', () => {
    expect(generationIn(update('5'))).toBe(5);
    expect(generationIn(update(7))).toBe(7);
    expect(generationIn(update(0))).toBe(0);
    for (const bad of [-1, 1.5, '1e3', 'x', '99999999999999999', null, {}]) expect(generationIn(update(bad))).toBeUndefined();
    expect(generationIn({ task: { id: 't', generation: '3' } })).toBe(3);
    expect(generationIn({ artifactUpdate: { generation: 4 } })).toBe(4);
    expect(generationIn({ message: { generation: 4 } })).toBeUndefined();
  });

  it('reaches the event through the stream reader (the exact fast and scanned shapes carry none) and a push', () => {
    const frame = (result: unknown) => JSON.stringify({ jsonrpc: '2.0', id: 1, result });
    const call = () => ({ id: 1, echo: '1', ids: {} });
    expect(frameValue(frame(update('6')), call(), EVENTS)).toMatchObject({ kind: 'status', generation: 6 });
    const chunk = {
      artifactUpdate: { taskId: 't', contextId: 'c', artifact: { artifactId: 'a', parts: [{ text: 'hi' }] }, append: true, generation: 9 },
    };
    expect(frameValue(frame(chunk), call(), EVENTS)).toMatchObject({ kind: 'artifact', generation: 9, append: true });
    const snapshot = { task: { id: 't', contextId: 'c', status: { state: 'TASK_STATE_WORKING' }, generation: '2' } };
    expect(frameValue(frame(snapshot), call(), EVENTS)).toMatchObject({ kind: 'task', task: { id: 't', generation: 2 } });
    expect(frameValue(frame(update(undefined)), call(), EVENTS)).not.toHaveProperty('generation');
    expect(pushEvent(update('8'))).toMatchObject({ kind: 'status', generation: 8 });
  });
});
