import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lastValueFrom, toArray } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoAgent, type DemoAgent } from '../../../demo/agent.js';
import { ATTACHMENT } from '../../../demo/reply.js';
import { createA2A } from '../../../src/client/create-a2a.js';
import type { TurnEvent } from '../../../src/port/events.js';
import type { OutgoingData, OutgoingFile } from '../../../src/port/types.js';
import { createSdkPorts } from '../../../src/sdk/ports.js';

/**
 * Files and data in and out, through the library against the demo agent on both protocol versions
 * and both stream readers: the `attach` chart arrives with its bytes, `echo` sends files and data
 * back unchanged, and a media type the card does not take is refused before the message goes.
 */
const SECRET = 'correct horse battery staple 0123456789';
const PDF = new TextEncoder().encode('%PDF-1.4 a tiny document\n');

let dir = '';
const agents: Record<string, DemoAgent> = {};
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'a4h-rich-'));
  agents['1.0'] = await startDemoAgent({ protocol: '1.0', memoryFile: join(dir, 'v1.json'), chunkDelayMs: 1 });
  agents['0.3'] = await startDemoAgent({ protocol: '0.3', memoryFile: join(dir, 'v03.json'), chunkDelayMs: 1 });
});
afterAll(async () => {
  await Promise.all(Object.values(agents).map((agent) => agent.close()));
  await rm(dir, { recursive: true, force: true });
});

describe.each([
  ['1.0', 'own'],
  ['1.0', 'sdk'],
  ['0.3', 'own'],
  ['0.3', 'sdk'],
] as const)('v%s, %s reader', (protocol, reader) => {
  const posts: string[] = [];
  const counting: typeof fetch = (input, init) => {
    if (init?.method === 'POST') posts.push(String(input));
    return fetch(input, init);
  };
  const a2a = createA2A({ identitySecret: SECRET, ports: createSdkPorts({ fetch: counting, reader: reader === 'sdk' ? 'sdk' : 'a4h' }) });
  const turn = (text: string, more: { files?: OutgoingFile[]; data?: OutgoingData[] } = {}) =>
    lastValueFrom(
      a2a.turn({ agent: agents[protocol]!.url, handle: 'demo', thread: `${protocol}-${reader}-${text}`, text, ...more }).pipe(toArray()),
    );
  const endOf = (events: TurnEvent[]) => events.at(-1) as Extract<TurnEvent, { type: 'end' }>;

  it('attach: the chart arrives once, with its name, media type and bytes', async () => {
    const events = await turn('attach a chart');
    const attached = events.filter((e) => e.type === 'attachment');
    expect(attached).toHaveLength(1);
    const end = endOf(events);
    expect(end.text).toContain('a4h-chart.png');
    expect(end.attachments).toEqual([
      { kind: 'file', name: 'a4h-chart.png', mediaType: 'image/png', size: ATTACHMENT.bytes.length, bytes: expect.any(Uint8Array) },
    ]);
    const file = end.attachments![0]!;
    expect(file.kind === 'file' && [...file.bytes!]).toEqual([...ATTACHMENT.bytes]);
  });

  it('echo: a file with bytes, a file by URI and a data part come back unchanged', async () => {
    const files: OutgoingFile[] = [
      { name: 'notes.pdf', mediaType: 'application/pdf', bytes: PDF },
      { name: 'photo.png', mediaType: 'image/png', uri: 'https://files.example/photo.png' },
    ];
    const events = await turn('echo these', { files, data: [{ data: { city: 'Paris', days: 3 } }] });
    const end = endOf(events);
    expect(end.outcome).toBe('completed');
    expect(end.attachments).toEqual([
      { kind: 'file', name: 'notes.pdf', mediaType: 'application/pdf', size: PDF.length, bytes: expect.any(Uint8Array) },
      { kind: 'file', name: 'photo.png', mediaType: 'image/png', uri: 'https://files.example/photo.png' },
      { kind: 'data', data: { city: 'Paris', days: 3 }, ...(protocol === '1.0' ? { mediaType: 'application/json' } : {}) },
    ]);
    const back = end.attachments![0]!;
    expect(back.kind === 'file' && new TextDecoder().decode(back.bytes)).toBe(new TextDecoder().decode(PDF));
  });

  it('a file alone (no text) goes too', async () => {
    const end = endOf(await turn('', { files: [{ name: 'a.csv', mediaType: 'text/csv', bytes: new TextEncoder().encode('a,b\n1,2\n') }] }));
    expect(end.outcome).toBe('completed');
  });

  it('a media type the card does not take is an input error before the message goes', async () => {
    const before = posts.length;
    const error = await turn('echo', { files: [{ name: 'x.exe', mediaType: 'application/x-msdownload', bytes: Uint8Array.of(1) }] }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ kind: 'input', message: expect.stringContaining('does not accept application/x-msdownload') });
    expect(posts.length).toBe(before);
  });
});
