import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromSdkEvent } from '../../../src/sdk/wire/mapping/from-sdk.js';
import { fastEvent } from '../../../src/sdk/wire/reader/fast.js';
import { toStreamResponse, type StreamIds } from '../../../src/sdk/wire/reader/results.js';

/** The general path of our reader: the SDK's codec, then our mapping (or the error it reports). */
function general(result: unknown, ids: StreamIds): unknown {
  try {
    return fromSdkEvent(toStreamResponse(result, ids));
  } catch (error) {
    return { failed: String(error) };
  }
}

const id = fc.oneof(fc.constant(''), fc.constant('T'), fc.uuid());
const optional = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
/** Parts: mostly `{ text }`, sometimes what only the general path reads. */
const part = fc.oneof(
  { weight: 6, arbitrary: fc.record({ text: fc.string() }) },
  { weight: 1, arbitrary: fc.record({ text: fc.string(), metadata: fc.constant({ k: 1 }) }) },
  { weight: 1, arbitrary: fc.record({ url: fc.webUrl(), mediaType: fc.constant('image/png') }) },
  { weight: 1, arbitrary: fc.record({ data: fc.constant({ a: 1 }) }) },
  { weight: 1, arbitrary: fc.record({ text: fc.integer() }) },
);
const artifact = fc.record(
  {
    artifactId: fc.oneof(id, fc.integer()),
    name: fc.oneof(fc.string(), fc.constant('')),
    parts: fc.oneof({ weight: 8, arbitrary: fc.array(part, { maxLength: 3 }) }, { weight: 1, arbitrary: fc.constant('not parts') }),
    description: fc.string(),
    metadata: fc.constant({ m: true }),
  },
  { requiredKeys: ['artifactId', 'parts'] },
);
const artifactUpdate = fc.record(
  {
    taskId: fc.oneof(id, fc.constant(null), fc.integer()),
    contextId: id,
    artifact: fc.oneof({ weight: 8, arbitrary: artifact }, { weight: 1, arbitrary: fc.constant(null) }),
    append: fc.oneof(fc.boolean(), fc.constant('yes')),
    lastChunk: fc.boolean(),
    last_chunk: fc.boolean(),
    metadata: fc.constant({ a4h: 1 }),
  },
  { requiredKeys: [] },
);
const state = fc.oneof(
  fc.constantFrom(
    'TASK_STATE_SUBMITTED',
    'TASK_STATE_WORKING',
    'TASK_STATE_COMPLETED',
    'TASK_STATE_FAILED',
    'TASK_STATE_CANCELED',
    'TASK_STATE_INPUT_REQUIRED',
    'TASK_STATE_REJECTED',
    'TASK_STATE_AUTH_REQUIRED',
  ),
  fc.constantFrom('TASK_STATE_UNSPECIFIED', 'working', 'NOPE'),
  fc.integer({ min: 0, max: 9 }),
);
const statusUpdate = fc.record(
  {
    taskId: id,
    contextId: fc.oneof(id, fc.integer()),
    status: fc.record(
      {
        state,
        timestamp: fc.constant('2026-12-01T00:00:00Z'),
        message: fc.constant({ messageId: 'M', role: 'ROLE_AGENT', parts: [{ text: 'hi' }] }),
      },
      { requiredKeys: [] },
    ),
    final: fc.boolean(),
  },
  { requiredKeys: [] },
);
/** The shapes SDK servers send, which the fast path should answer. */
const cleanChunk = fc.record(
  {
    taskId: id,
    contextId: id,
    artifact: fc.record(
      { artifactId: id, name: fc.string(), parts: fc.array(fc.record({ text: fc.string() }), { maxLength: 3 }) },
      { requiredKeys: ['artifactId', 'parts'] },
    ),
    append: fc.boolean(),
    lastChunk: fc.boolean(),
  },
  { requiredKeys: ['artifact'] },
);
const cleanStatus = fc.record(
  { taskId: id, contextId: id, status: fc.record({ state, timestamp: fc.constant('2026-12-01T00:00:00Z') }, { requiredKeys: ['state'] }) },
  { requiredKeys: ['status'] },
);
const result = fc.oneof(
  { weight: 4, arbitrary: fc.record({ artifactUpdate: cleanChunk }) },
  { weight: 3, arbitrary: fc.record({ statusUpdate: cleanStatus }) },
  { weight: 4, arbitrary: fc.record({ artifactUpdate }) },
  { weight: 3, arbitrary: fc.record({ statusUpdate }) },
  { weight: 1, arbitrary: fc.record({ artifactUpdate, statusUpdate }) },
  { weight: 1, arbitrary: fc.record({ artifactUpdate, task: fc.constant({ id: 'T', status: { state: 'TASK_STATE_WORKING' } }) }) },
  { weight: 1, arbitrary: fc.record({ artifact_update: artifactUpdate }) },
);
const known = fc.record({ taskId: optional(id), contextId: optional(id) });
const defined = (ids: { taskId?: string | undefined; contextId?: string | undefined }): StreamIds =>
  Object.fromEntries(Object.entries(ids).filter(([, v]) => v !== undefined)) as StreamIds;

describe('the fast path of our reader', () => {
  it('gives, wherever it answers, the event and the remembered ids the general path gives', () => {
    let answered = 0;
    fc.assert(
      fc.property(result, known, (json, before) => {
        const slow = defined(before);
        const quick = defined(before);
        const event = fastEvent(structuredClone(json), quick);
        const expected = general(structuredClone(json), slow);
        if (event === undefined) {
          expect(quick).toEqual(defined(before)); // nothing remembered when it declines
          return;
        }
        answered++;
        expect(event).toEqual(expected);
        expect(quick).toEqual(slow);
      }),
      { numRuns: 3_000 },
    );
    expect(answered).toBeGreaterThan(100); // the property speaks of real answers, not only of declines
  });

  it('answers the frames an @a2a-js/sdk server streams (the benchmark replay frames)', () => {
    const ids: StreamIds = {};
    const chunk = {
      artifactUpdate: { taskId: 'T', contextId: 'C', artifact: { artifactId: 'out', parts: [{ text: 'chunk-0000000001' }] }, append: true },
    };
    const status = { statusUpdate: { taskId: 'T', contextId: 'C', status: { state: 'TASK_STATE_COMPLETED' } } };
    expect(fastEvent(chunk, ids)).toEqual({
      kind: 'artifact',
      taskId: 'T',
      contextId: 'C',
      artifact: { artifactId: 'out', parts: [{ kind: 'text', text: 'chunk-0000000001' }] },
      append: true,
      lastChunk: false,
    });
    expect(fastEvent(status, ids)).toEqual({ kind: 'status', taskId: 'T', contextId: 'C', status: { state: 'completed' } });
    expect(ids).toEqual({ taskId: 'T', contextId: 'C' });
  });
});
