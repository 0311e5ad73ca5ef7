/**
 * The demo agent draws (demo/a2ui.ts), v1.0 and v0.3, through the raw SDK client: its card offers A2UI
 * v1.0; `form …` answers with a text and the form in the spec's shape; the form's action is answered
 * on the form; an action on another surface fails; over gRPC it says it cannot draw.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Message, Task } from '@a2a-js/sdk';
import { ClientFactory, ClientFactoryOptions, type Client } from '@a2a-js/sdk/client';
import { GrpcTransportFactory } from '@a2a-js/sdk/client/grpc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORM_TEXT, NO_FORM_TEXT } from '../demo/a2ui.js';
import { startDemoAgent, type DemoAgent } from '../demo/agent.js';
import { notMineText } from '../fixtures/a2ui-actions.js';
import { a2uiMessagesOf, a2uiRequest, actionPart, formAction, keysOf } from '../fixtures/a2ui-client.js';
import { A2UI_EXTENSION, A2UI_MIME, CATALOG_IDS, choseText } from '../fixtures/a2ui-protocol.js';
import { PATHS } from '../fixtures/http-host.js';
import { connectUrl, stateName, textOf } from '../fixtures/sdk-client.js';

type Json = Record<string, any>;

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'a4h-demo-a2ui-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const asTask = (result: Message | Task): Task => {
  if (!('status' in result)) throw new Error('a task, not a message');
  return result;
};

describe.each(['1.0', '0.3'] as const)('the demo agent draws (A2A %s)', (protocol) => {
  let agent: DemoAgent;
  let client: Client;
  const lines: string[] = [];
  beforeAll(async () => {
    agent = await startDemoAgent({
      protocol,
      memoryFile: join(dir, `memory-${protocol}.json`),
      chunkDelayMs: 1,
      log: (l) => lines.push(l),
    });
    client = await connectUrl(agent.url, { bindings: ['JSONRPC'] });
  });
  afterAll(() => agent.close());

  it('its card offers A2UI v1.0 with the basic catalog', async () => {
    const card = (await (await fetch(`${agent.url}${PATHS.card.slice(1)}`)).json()) as Json;
    expect(card['capabilities']['extensions']).toMatchObject([
      { uri: A2UI_EXTENSION.v1, params: { supportedCatalogIds: [CATALOG_IDS['v1.0']], acceptsInlineCatalogs: false } },
    ]);
    expect(card['skills'].map((s: Json) => s['id'])).toContain('form');
  });

  it('`form …`: a text, then the form in the spec’s shape; its action is answered on the form', async () => {
    const form = asTask(await client.sendMessage(a2uiRequest('form please', { contextId: `ctx-form-${protocol}` })));
    expect(stateName(form.status?.state)).toBe('COMPLETED');
    const [artifact, ...more] = form.artifacts;
    expect(more).toEqual([]);
    expect(artifact!.artifactId).toBe('answer');
    const [text, ...surface] = artifact!.parts;
    expect(textOf([text!])).toBe(FORM_TEXT);
    expect(surface).toHaveLength(protocol === '1.0' ? 1 : 3);
    expect(surface.every((p) => p.metadata?.['mimeType'] === A2UI_MIME)).toBe(true);
    const messages = a2uiMessagesOf(surface) as Json[];
    expect(keysOf(messages)).toEqual(['createSurface', 'updateComponents', 'updateDataModel']);
    expect(messages.every((m) => m['version'] === 'v1.0')).toBe(true);
    const surfaceId = messages[0]!['createSurface']['surfaceId'];
    expect(messages[0]!['createSurface']).toMatchObject({ sendDataModel: true, catalogId: CATALOG_IDS['v1.0'] });
    const components = messages[1]!['updateComponents']['components'] as Json[];
    expect(components.map((c) => c['component'])).toEqual(expect.arrayContaining(['ChoicePicker', 'Button']));

    const action = actionPart(formAction(surfaceId, 'coffee'), protocol === '1.0' ? '1.0' : '0.3');
    const answer = asTask(await client.sendMessage(a2uiRequest('', { parts: [action], contextId: `ctx-form-${protocol}` })));
    expect(stateName(answer.status?.state)).toBe('COMPLETED');
    const parts = answer.artifacts[0]!.parts;
    expect(textOf(parts.slice(0, 1))).toBe(`${choseText('coffee')}.`);
    const update = a2uiMessagesOf(parts.slice(1)) as Json[];
    expect(keysOf(update)).toEqual(['updateDataModel', 'updateComponents']);
    expect(update[0]!['updateDataModel']).toEqual({ surfaceId, path: '/answer', value: choseText('coffee') });
    expect(update[1]!['updateComponents']['components']).toContainEqual({ id: 'answer', component: 'Text', text: { path: '/answer' } });
    expect(lines.filter((l) => / \(form( action)?\)$/.test(l))).toHaveLength(2);
  });

  it('an action on a surface it did not draw fails, saying so', async () => {
    const action = actionPart(formAction('form-00000000', 'tea'), protocol === '1.0' ? '1.0' : '0.3');
    const answer = asTask(await client.sendMessage(a2uiRequest('', { parts: [action] })));
    expect(stateName(answer.status?.state)).toBe('FAILED');
    expect(textOf(answer.status?.message?.parts)).toBe(notMineText('form-00000000'));
  });
});

describe('the demo agent over gRPC', () => {
  it('a `form` turn says in text that it cannot draw there', async () => {
    const agent = await startDemoAgent({ grpc: true, memoryFile: join(dir, 'memory-grpc.json'), chunkDelayMs: 1 });
    try {
      const options = ClientFactoryOptions.createFrom(ClientFactoryOptions.default, { transports: [new GrpcTransportFactory()] });
      const client = await new ClientFactory(options).createFromUrl(agent.url);
      const reply = asTask(await client.sendMessage(a2uiRequest('form')));
      expect(reply.artifacts.map((a) => textOf(a.parts))).toEqual([NO_FORM_TEXT]);
    } finally {
      await agent.close();
    }
  });
});
