import { lastValueFrom } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeFetch, type NodeFetch } from '../../../../src/node/fetch.js';
import { createSdkPorts } from '../../../../src/sdk/ports.js';
import { hostOfCard } from '../../../../src/sdk/agent/unspecified-host.js';
import { runTurn } from '../../../../src/turn/turn.js';
import { collect, endOf, FAST } from '../../harness.js';
import { sendJson, sseFrame, startRawAgent, type RawAgent } from '../../raw-agent.js';

describe('hostOfCard', () => {
  it('an interface on 0.0.0.0 or [::] is called on the host the card came from, with its own scheme, port and path', () => {
    expect(hostOfCard('http://0.0.0.0:8000/a2a', 'https://agent.example.com/.well-known/agent-card.json')).toBe(
      'http://agent.example.com:8000/a2a',
    );
    expect(hostOfCard('http://[::]:9/rpc?x=1', 'http://10.1.2.3:80/card.json')).toBe('http://10.1.2.3:9/rpc?x=1');
    expect(hostOfCard('http://[0:0:0:0:0:0:0:0]/', 'http://h/card.json')).toBe('http://h/');
  });

  it('leaves a real host alone, and an unspecified one when the card came from one too', () => {
    expect(hostOfCard('http://agent-svc.internal:8080/', 'https://agent.example.com/card.json')).toBeUndefined();
    expect(hostOfCard('http://127.0.0.1:8080/', 'https://agent.example.com/card.json')).toBeUndefined();
    expect(hostOfCard('http://0.0.0.0:8080/', 'http://0.0.0.0:8080/card.json')).toBeUndefined();
  });
});

describe('an agent whose card names its bind address', () => {
  let http: NodeFetch;
  let agent: RawAgent;
  /** The Host header of each call after the card's. */
  const hosts: string[] = [];
  let named = '0.0.0.0';
  beforeAll(async () => {
    http = createNodeFetch();
    agent = await startRawAgent((req, res, { base, rpc }) => {
      const port = new URL(base).port;
      if (rpc === undefined) {
        return sendJson(res, {
          name: 'in a container',
          supportedInterfaces: [{ url: `http://${named}:${port}/rpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
          capabilities: { streaming: true },
        });
      }
      hosts.push(req.headers.host ?? '');
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const task = { id: 'T', contextId: 'C', status: { state: 'TASK_STATE_COMPLETED' } };
      res.write(sseFrame(rpc.id, { task: { ...task, artifacts: [{ artifactId: 'A', parts: [{ text: 'Reached.' }] }] } }));
      res.end();
    });
  });
  afterAll(async () => {
    await agent.close();
    await http.close();
  });

  for (const address of ['0.0.0.0', '[::]']) {
    it(`${address}: the calls go to the card's host (127.0.0.1) on the card's port and path, and one warning says so`, async () => {
      named = address;
      hosts.length = 0;
      const warnings: Record<string, unknown>[] = [];
      const logger = { debug() {}, info() {}, error() {}, warn: (fields: Record<string, unknown>) => void warnings.push(fields) };
      const ports = createSdkPorts({ fetch: http.fetch, logger });
      const port = new URL(agent.url).port;
      const card = await lastValueFrom(ports(agent.url).card());
      expect(card.url).toBe(`http://127.0.0.1:${port}/rpc`);
      for (let i = 0; i < 2; i++) {
        const events = await collect(runTurn(ports(agent.url), { text: 'hi' }, FAST));
        expect(endOf(events)).toMatchObject({ outcome: 'completed', text: 'Reached.' });
      }
      expect(hosts).toEqual([`127.0.0.1:${port}`, `127.0.0.1:${port}`]);
      expect(warnings).toEqual([
        {
          agent: `${agent.url}.well-known/agent-card.json`,
          named: `http://${address}:${port}/rpc`,
          called: `http://127.0.0.1:${port}/rpc`,
        },
      ]);
    });
  }

  it('an internal host name that does not resolve stays a clear network error naming that URL', async () => {
    named = 'agent-svc.internal';
    const port = new URL(agent.url).port;
    // No DNS query leaves the machine: the fetch fails for that host the way undici does.
    const fetch: typeof globalThis.fetch = (input, init) => {
      const url = String(input instanceof Request ? input.url : input);
      if (new URL(url).hostname === 'agent-svc.internal') {
        const cause = Object.assign(new Error('getaddrinfo ENOTFOUND agent-svc.internal'), { code: 'ENOTFOUND' });
        return Promise.reject(new TypeError('fetch failed', { cause }));
      }
      return http.fetch(input, init);
    };
    const events = await collect(runTurn(createSdkPorts({ fetch })(agent.url), { text: 'hi' }, FAST)).catch((error: unknown) => error);
    expect(events).toMatchObject({
      kind: 'network',
      message: expect.stringContaining(`http://agent-svc.internal:${port}/rpc`),
    });
    expect((events as Error).message).toContain('ENOTFOUND');
  });
});
