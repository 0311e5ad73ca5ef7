/**
 * The parse-less path (`reader/scan.ts`) against the full parse of a frame (`reader/frame.ts`: the
 * envelope parsed and checked, then the fast path or the SDK's codec and our mapping): wherever the scan
 * answers, it gives the same event and remembers the same ids; where it declines, it remembers nothing.
 * Over the frames SDK servers write (any text, any ids, escapes and all), the same frames written
 * otherwise (members reordered, whitespace, `append: false`, a second part, metadata, the id as a
 * string or another call's), those frames cut or with one character changed, and every frame the
 * fault cells inject (`fixtures/faults/frames.ts`). The fault and integration cells run with it too.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildFrame } from '../../../fixtures/faults/frames.js';
import type { InjectedFrame } from '../../../fixtures/faults/types.js';
import type { AgentEvent } from '../../../src/port/types.js';
import { fromSdkEvent } from '../../../src/sdk/wire/mapping/from-sdk.js';
import { fastEvent } from '../../../src/sdk/wire/reader/fast.js';
import { frameValue, type StreamMapping } from '../../../src/sdk/wire/reader/frame.js';
import type { StreamIds } from '../../../src/sdk/wire/reader/results.js';
import { scanTextChunk } from '../../../src/sdk/wire/reader/scan.js';

const FULL: StreamMapping<AgentEvent> = { map: fromSdkEvent, fast: fastEvent };
const ID = 7;

/** The full path's answer for a frame of call 7: its event, or the error it throws. */
function full(data: string, ids: StreamIds): unknown {
  try {
    return frameValue(data, { id: ID, echo: String(ID), ids }, FULL);
  } catch (error) {
    return { failed: String(error) };
  }
}

type Json = Record<string, unknown>;

/** The compact JSON an SDK server writes for a text chunk: members in field order, `append` and `lastChunk` only when true. */
function sdkFrame(c: {
  id: unknown;
  taskId: string;
  contextId: string;
  artifactId: string;
  text: string;
  append: boolean;
  last: boolean;
}): string {
  const update: Json = { taskId: c.taskId, contextId: c.contextId, artifact: { artifactId: c.artifactId, parts: [{ text: c.text }] } };
  if (c.append) update['append'] = true;
  if (c.last) update['lastChunk'] = true;
  return JSON.stringify({ jsonrpc: '2.0', id: c.id, result: { artifactUpdate: update } });
}

/** Strings with what JSON must escape, and what it need not: quotes, backslashes, control characters, astral and lone surrogates. */
const text = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.constantFrom('', 'chunk-0000000001', 'say "hi"\n', 'back\\slash', '\u0000\u001f\u007f', '\u2028\u2029', '😀', '\ud800'),
);
const ident = fc.oneof(fc.uuid(), fc.constantFrom('', 'T', 'out', 'a"b', 'a\\b'), fc.string());
const chunk = fc.record({
  id: fc.oneof({ weight: 8, arbitrary: fc.constant<unknown>(ID) }, { weight: 1, arbitrary: fc.constantFrom<unknown>('7', 70, 8, null) }),
  taskId: ident,
  contextId: ident,
  artifactId: ident,
  text,
  append: fc.boolean(),
  last: fc.boolean(),
});

/** The same chunk written otherwise: still valid JSON, never the SDK's exact bytes. */
const rewrites: ((frame: string) => string)[] = [
  (f) => JSON.stringify(JSON.parse(f), null, 1),
  (f) => f.replace('{"jsonrpc":"2.0","id":7,', '{"id":7,"jsonrpc":"2.0",'),
  (f) => f.replace('"artifact":{', '"append":false,"artifact":{'),
  (f) => f.replace('}]}', '},{"text":"more"}]}'),
  (f) => f.replace('"parts":[{"text"', '"parts":[{"metadata":{"k":1},"text"'),
  (f) => f.replace('}]}', '}],"name":"answer"}'),
  (f) => f.replace(/}}}$/, ',"metadata":{"a":1}}}}'),
  (f) => f.replace('"id":7,', '"id":"7",'),
  (f) => `${f} `,
  (f) => f.replace('"jsonrpc":"2.0",', ''),
];

/** One character inserted, removed or replaced: JSON's own characters most often. */
const edit = fc.record({
  at: fc.nat(),
  how: fc.constantFrom('insert', 'remove', 'replace'),
  char: fc.oneof(
    fc.constantFrom('"', '\\', '{', '}', '[', ']', ',', ':', ' ', '\n', '\u0000', 'u', '0'),
    fc.string({ minLength: 1, maxLength: 1 }),
  ),
});
function edited(frame: string, e: { at: number; how: string; char: string }): string {
  const at = e.at % (frame.length + 1);
  if (e.how === 'insert') return frame.slice(0, at) + e.char + frame.slice(at);
  if (e.how === 'remove') return frame.slice(0, at) + frame.slice(at + 1);
  return frame.slice(0, at) + e.char + frame.slice(at + 1);
}

const known = fc.record({ taskId: fc.option(ident, { nil: undefined }), contextId: fc.option(ident, { nil: undefined }) });
const defined = (ids: { taskId?: string | undefined; contextId?: string | undefined }): StreamIds =>
  Object.fromEntries(Object.entries(ids).filter(([, v]) => v !== undefined)) as StreamIds;

/** Holds the scan to the full path on `data`; true when the scan answered. */
function agrees(data: string, before: StreamIds): boolean {
  const scanned = { ...before };
  const parsed = { ...before };
  const event = scanTextChunk(data, String(ID), scanned);
  const expected = full(data, parsed);
  if (event === undefined) {
    expect(scanned).toEqual(before);
    return false;
  }
  expect(event).toEqual(expected);
  expect(scanned).toEqual(parsed);
  return true;
}

describe('the parse-less path of our reader', () => {
  it("answers the SDK's own frames as the full parse does, whatever their text and ids", () => {
    let answered = 0;
    let tried = 0;
    fc.assert(
      fc.property(chunk, known, fc.boolean(), (c, before, told) => {
        tried++;
        // `told`: the stream already named these ids (the scan hands back the strings it was told).
        if (agrees(sdkFrame(c), told ? { taskId: c.taskId, contextId: c.contextId } : defined(before))) answered++;
      }),
      { numRuns: 3_000 },
    );
    // It declines only the frames of another call and the empty artifactId (which the full path refuses).
    expect(answered).toBeGreaterThan(tried / 2);
  });

  it('declines the same frame written otherwise, and agrees wherever a cut or a changed character leaves it answering', () => {
    fc.assert(
      fc.property(chunk, known, fc.nat({ max: rewrites.length - 1 }), (c, before, which) => {
        const frame = sdkFrame({ ...c, id: ID });
        expect(scanTextChunk(rewrites[which]!(frame), String(ID), {})).toBeUndefined();
        agrees(rewrites[which]!(frame), defined(before));
      }),
      { numRuns: 1_000 },
    );
    fc.assert(
      fc.property(chunk, known, fc.boolean(), fc.array(edit, { minLength: 1, maxLength: 3 }), fc.nat(), (c, before, told, edits, cut) => {
        const frame = sdkFrame({ ...c, id: ID });
        const ids = told ? { taskId: c.taskId, contextId: c.contextId } : defined(before);
        agrees(edits.reduce(edited, frame), ids);
        agrees(frame.slice(0, cut % (frame.length + 1)), ids);
      }),
      { numRuns: 5_000 },
    );
  });

  it('agrees on every frame the fault cells inject, after a chunk of this call and of another', () => {
    const frames: InjectedFrame[] = [
      { kind: 'malformed' },
      { kind: 'not-jsonrpc' },
      { kind: 'cloudevent' },
      { kind: 'raw', text: 'data: {"jsonrpc":"2.0","id":7,"result":{}}\n\n' },
      { kind: 'oversized', bytes: 4_096 },
      { kind: 'other-task', as: 'copy' },
      { kind: 'other-task', as: 'status' },
      { kind: 'other-task', as: 'artifact', text: 'INJECTED' },
    ];
    const base = { taskId: 'T', contextId: 'C', artifactId: 'out', text: 'chunk-0000000001', append: true, last: false };
    for (const id of [ID, 8]) {
      const lastData = sdkFrame({ ...base, id });
      for (const frame of frames) {
        const data = buildFrame(frame, { lastData, rpcId: id })
          .split('\n')
          .filter((line) => line.startsWith('data: '))
          .map((line) => line.slice('data: '.length))
          .join('\n');
        agrees(data, {});
      }
      agrees(lastData, {});
    }
    expect(scanTextChunk(sdkFrame({ ...base, id: ID }), String(ID), {})).toBeDefined();
    // An id told before whose characters begin another id's escaped form (`a\` before `a\"`) is not that id.
    expect(agrees(sdkFrame({ ...base, id: ID, taskId: 'a"' }), { taskId: 'a\\' })).toBe(true);
  });

  it('keeps nothing of the chunk its frame was read from: the strings of its event are their own', () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const kept: AgentEvent[] = [];
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < 40; i++) {
      const frame = sdkFrame({
        id: ID,
        taskId: `task-${i}-of-the-chunk`,
        contextId: `context-${i}-of-the-chunk`,
        artifactId: `artifact-${i}-of-the-chunk`,
        text: `the reply's chunk number ${i}`,
        append: true,
        last: false,
      });
      // One read of the wire: this frame and 1 MiB of other lines after it; the frame's data is a slice of it.
      const read = `data: ${frame}\n\n: ${'x'.repeat(1 << 20)}${i}\n`;
      const event = scanTextChunk(read.slice('data: '.length, 'data: '.length + frame.length), String(ID), {});
      expect(event).toMatchObject({ taskId: `task-${i}-of-the-chunk`, artifact: { parts: [{ text: `the reply's chunk number ${i}` }] } });
      kept.push(event!);
    }
    gc();
    // Each string kept as a slice would keep its read alive: 40 MiB.
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(8 * 1024 * 1024);
    expect(kept).toHaveLength(40);
  });
});
