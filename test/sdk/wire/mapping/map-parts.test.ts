import { describe, expect, it } from 'vitest';
import { fromSdkEvent } from '../../../../src/sdk/wire/mapping/from-sdk.js';
import { toStreamResponse } from '../../../../src/sdk/wire/reader/results.js';

/** File and data parts as each generation writes them, mapped into the domain (bytes decoded once, as a Uint8Array). */
const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 255]);
const B64 = Buffer.from(PNG).toString('base64');

function partsOf(result: unknown) {
  const event = fromSdkEvent(toStreamResponse(result, {}));
  if (event.kind !== 'artifact') throw new Error(`not an artifact: ${event.kind}`);
  return event.artifact.parts;
}

describe('file and data parts through the mapping', () => {
  it('v1.0: raw bytes, a url and data with its media type', () => {
    const parts = partsOf({
      artifactUpdate: {
        taskId: 'T',
        contextId: 'C',
        artifact: {
          artifactId: 'A',
          parts: [
            { text: 'see' },
            { raw: B64, mediaType: 'image/png', filename: 'chart.png' },
            { url: 'https://files.example/doc.pdf', mediaType: 'application/pdf', filename: 'doc.pdf' },
            { data: { rows: [1, 2] }, mediaType: 'application/vnd.table+json' },
          ],
        },
      },
    });
    expect(parts[0]).toEqual({ kind: 'text', text: 'see' });
    const file = parts[1]!;
    expect(file).toMatchObject({ kind: 'file', name: 'chart.png', mediaType: 'image/png' });
    expect(file.kind === 'file' && file.bytes).toBeInstanceOf(Uint8Array);
    expect(file.kind === 'file' && [...file.bytes!]).toEqual([...PNG]);
    expect(parts[2]).toEqual({ kind: 'file', uri: 'https://files.example/doc.pdf', mediaType: 'application/pdf', name: 'doc.pdf' });
    expect(parts[3]).toEqual({ kind: 'data', data: { rows: [1, 2] }, mediaType: 'application/vnd.table+json' });
  });

  it('v0.3: kind "file" with bytes or a uri, kind "data"', () => {
    const parts = partsOf({
      kind: 'artifact-update',
      taskId: 'T',
      contextId: 'C',
      artifact: {
        artifactId: 'A',
        parts: [
          { kind: 'file', file: { bytes: B64, mimeType: 'image/png', name: 'chart.png' } },
          { kind: 'file', file: { uri: 'https://files.example/doc.pdf', mimeType: 'application/pdf', name: 'doc.pdf' } },
          { kind: 'data', data: { id: 'fc1', name: 'get_weather' }, metadata: { adk_type: 'function_call' } },
        ],
      },
    });
    const file = parts[0]!;
    expect(file).toMatchObject({ kind: 'file', name: 'chart.png', mediaType: 'image/png' });
    expect(file.kind === 'file' && [...file.bytes!]).toEqual([...PNG]);
    expect(parts[1]).toEqual({ kind: 'file', uri: 'https://files.example/doc.pdf', mediaType: 'application/pdf', name: 'doc.pdf' });
    expect(parts[2]).toEqual({ kind: 'data', data: { id: 'fc1', name: 'get_weather' }, metadata: { adk_type: 'function_call' } });
  });
});
