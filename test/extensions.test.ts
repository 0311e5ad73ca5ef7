import { lastValueFrom, tap } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { createA2A } from '../src/client/create-a2a.js';
import { A2AError } from '../src/errors.js';
import { checkExtensionUris, mergeExtensions } from '../src/port/extensions.js';
import type { PortTurn } from '../src/port/port.js';
import { AgentExtensions } from '../src/sdk/http/extensions/options.js';
import { createSdkPorts } from '../src/sdk/ports.js';

const A = 'https://extensions.example/a/v1';
const B = 'https://extensions.example/b/v1';
const C = 'urn:example:c';
const SECRET = 'extensions unit test secret 0123456789';

describe('extensions per agent, scoped like credentials', () => {
  const extensions = new AgentExtensions({
    'https://agents.example': [A],
    'https://agents.example/travel/': [B],
    'http://127.0.0.1:8080/x': [C],
  });
  const card = (url: string) => `${url}.well-known/agent-card.json`;

  it("an agent takes the entry whose key is the longest prefix of its card URL (the origin's otherwise)", () => {
    expect(extensions.forTurn(card('https://agents.example/'), undefined)).toEqual([A]);
    expect(extensions.forTurn(card('https://agents.example/travel/'), undefined)).toEqual([B]);
    expect(extensions.forTurn(card('https://agents.example/travelling/'), undefined)).toEqual([A]);
    expect(extensions.forTurn(card('http://127.0.0.1:8080/x/'), undefined)).toEqual([C]);
    expect(extensions.forTurn(card('https://other.example/'), undefined)).toEqual([]);
  });

  it("a turn's own are added after the agent's, each once", () => {
    expect(extensions.forTurn(card('https://agents.example/'), [B, A, C])).toEqual([A, B, C]);
    expect(extensions.forTurn(card('https://other.example/'), [C])).toEqual([C]);
    expect(mergeExtensions([A], [])).toEqual([A]);
  });

  it('a bad entry is a config error naming its key', () => {
    const bad: [Record<string, unknown>, string][] = [
      [{ 'ftp://agents.example': [A] }, 'http(s) origin'],
      [{ 'https://u:p@agents.example': [A] }, 'no user'],
      [{ 'https://agents.example': A }, 'array'],
      [{ 'https://agents.example': ['not a uri'] }, 'absolute URIs'],
      [{ 'https://agents.example': ['https://x.example/a,b'] }, 'commas'],
      [{ 'https://agents.example': ['https://x.example/a\r\nX-Evil: 1'] }, 'absolute URIs'],
    ];
    for (const [option, words] of bad) {
      let error: unknown;
      try {
        new AgentExtensions(option as Record<string, string[]>);
      } catch (thrown) {
        error = thrown;
      }
      expect(error).toBeInstanceOf(A2AError);
      expect(error).toMatchObject({ kind: 'config', operation: 'options' });
      expect((error as Error).message).toContain(words);
    }
    expect(() => createA2A({ identitySecret: SECRET, extensions: { 'https://h': [''] } })).toThrow(/absolute URIs/);
  });

  it('URIs: absolute, no whitespace, no comma, at most 64', () => {
    expect(checkExtensionUris([A, C], 'extensions', 'input', 'turn')).toEqual([A, C]);
    expect(() =>
      checkExtensionUris(
        Array.from({ length: 65 }, (_, i) => `urn:x:${i}`),
        'extensions',
        'input',
        'turn',
      ),
    ).toThrow(/at most 64/);
    expect(() => checkExtensionUris('urn:x:y', 'extensions', 'input', 'turn')).toThrow(/array/);
  });
});

describe("a turn's extensions, checked before any I/O", () => {
  it('a bad URI: the turn starts and fails with an input error, nothing is fetched', async () => {
    const fetched: string[] = [];
    const fetch = (async (input: string | URL | Request) => {
      fetched.push(String(input));
      throw new Error('no fetch expected');
    }) as typeof globalThis.fetch;
    const a2a = createA2A({ identitySecret: SECRET, fetch });
    for (const run of [
      () => a2a.turn({ agent: 'http://127.0.0.1:9/', handle: 'h', thread: 't', text: 'hi', extensions: ['a b'] }),
      () => a2a.resume({ agent: 'http://127.0.0.1:9/', handle: 'h', thread: 't', extensions: [42 as unknown as string] }),
    ]) {
      const types: string[] = [];
      const error = await lastValueFrom(run().pipe(tap((event) => types.push(event.type)))).catch((e: unknown) => e);
      expect(types).toEqual(['start']);
      expect(error).toMatchObject({ kind: 'input', operation: 'turn' });
    }
    expect(fetched).toEqual([]);
  });

  it('checked by the client itself, so an injected port factory never sees them', async () => {
    const made: unknown[] = [];
    const a2a = createA2A({
      identitySecret: SECRET,
      ports: (agent, turn) => {
        made.push(turn);
        return createSdkPorts()(agent, turn);
      },
    });
    const error = await lastValueFrom(
      a2a.turn({ agent: 'http://127.0.0.1:9/', handle: 'h', thread: 't', text: 'hi', extensions: ['https://x.example/a b'] }),
    ).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'input', operation: 'turn', message: expect.stringContaining('extensions') });
    expect(made).toEqual([]);
  });

  it('a port made with bad extensions fails every call with the input error (nothing fetched)', async () => {
    const fetched: string[] = [];
    const fetch = (async (input: string | URL | Request) => {
      fetched.push(String(input));
      throw new Error('no fetch expected');
    }) as typeof globalThis.fetch;
    const turn: PortTurn = { extensions: ['https://x.example/a,b'] };
    const port = createSdkPorts({ fetch })('http://127.0.0.1:9/', turn);
    await expect(lastValueFrom(port.send({ text: 'hi' }))).rejects.toMatchObject({ kind: 'input' });
    expect(fetched).toEqual([]);
  });
});
