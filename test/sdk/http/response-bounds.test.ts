import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createA2A as createCoreA2A } from '../../../src/client/create-a2a.js';
import { createA2A as createNodeA2A } from '../../../src/node/create-a2a.js';
import { createNodeFetch } from '../../../src/node/fetch.js';
import { createSdkPorts } from '../../../src/sdk/ports.js';
import { completed, failed, turn } from '../credentials-kit.js';
import { FAST } from '../harness.js';
import { rawCard, sendJson, startRawAgent, type RawAgent } from '../raw-agent.js';

// The bound on answers read whole (maxResponseBytes): 64 MiB when no option is given, and the option
// passed through by both createA2A's. The agent writes its answer lazily, a mebibyte at a time as the
// socket takes it, so neither side holds it whole.

const SECRET = 'bounds test identity secret 0123456789';
const MiB = 2 ** 20;

/** How an agent answers SendMessage: `size` bytes of valid JSON, with or without a Content-Length. */
interface Answer {
  size: number;
  declared: boolean;
}

/** Writes a completed task padded to exactly `size` bytes, lazily; returns how many bytes went out. */
function writeAnswer(res: ServerResponse, id: number, { size, declared }: Answer, sent: { bytes: number }): void {
  const head = `{"jsonrpc":"2.0","id":${id},"result":{"task":{"id":"T","contextId":"C","status":{"state":"TASK_STATE_COMPLETED"},"artifacts":[{"artifactId":"A","parts":[{"text":"bounded"}]}],"metadata":{"pad":"`;
  const tail = '"}}}}';
  let pad = size - head.length - tail.length;
  res.writeHead(200, { 'content-type': 'application/json', ...(declared ? { 'content-length': String(size) } : {}) });
  const chunk = 'z'.repeat(MiB);
  const write = (text: string): boolean => {
    sent.bytes += text.length;
    return res.write(text);
  };
  write(head);
  const more = (): void => {
    while (!res.destroyed && pad > 0) {
      const part = pad >= MiB ? chunk : chunk.slice(0, pad);
      pad -= part.length;
      if (!write(part)) return void res.once('drain', more);
    }
    if (!res.destroyed) res.end(tail);
  };
  more();
}

/** A blocking v1.0 agent whose SendMessage answer is `answer`; `sent.bytes` counts what it wrote of it. */
async function answering(answer: Answer): Promise<RawAgent & { sent: { bytes: number } }> {
  const sent = { bytes: 0 };
  const agent = await startRawAgent((_req, res, { base, rpc }) => {
    if (rpc === undefined) {
      return sendJson(res, rawCard(base, 'large answers', undefined, { capabilities: { streaming: false } }));
    }
    if (rpc.method !== 'SendMessage') return sendJson(res, { jsonrpc: '2.0', id: rpc.id, result: { tasks: [] } });
    writeAnswer(res, rpc.id, answer, sent);
  });
  agents.push(agent);
  return Object.assign(agent, { sent });
}

const agents: RawAgent[] = [];
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
  for (const agent of agents.splice(0)) await agent.close();
});

describe('the default bound: 64 MiB', () => {
  it('an answer that says it is 64 MiB + 1 byte is refused at once, before its body is read', async () => {
    const agent = await answering({ size: 64 * MiB + 1, declared: true });
    const a2a = createNodeA2A({ identitySecret: SECRET, policy: FAST.policy });
    closers.push(() => a2a.close());
    const error = failed(await turn(a2a, agent.url, 'hi'));
    expect(error).toMatchObject({ kind: 'protocol', operation: 'send', retryable: false });
    expect(error.message).toContain(`the agent's answer is larger than ${64 * MiB} bytes (maxResponseBytes)`);
    // What the socket buffers before the client cancels, far from the whole answer.
    expect(agent.sent.bytes).toBeLessThan(16 * MiB);
  });

  it('an answer that does not say its size is counted, and refused past 64 MiB', async () => {
    const agent = await answering({ size: 65 * MiB, declared: false });
    const http = createNodeFetch();
    closers.push(http.close);
    const a2a = createCoreA2A({ identitySecret: SECRET, policy: FAST.policy, fetch: http.fetch });
    closers.push(() => a2a.close());
    const error = failed(await turn(a2a, agent.url, 'hi'));
    expect(error).toMatchObject({ kind: 'protocol', operation: 'send' });
    expect(error.message).toContain(`larger than ${64 * MiB} bytes (maxResponseBytes)`);
  });
});

describe('maxResponseBytes, passed through by both createA2A', () => {
  const entries = [
    [
      'core',
      (maxResponseBytes?: number) =>
        createCoreA2A({ identitySecret: SECRET, policy: FAST.policy, ...(maxResponseBytes ? { maxResponseBytes } : {}) }),
    ],
    [
      'node',
      (maxResponseBytes?: number) =>
        createNodeA2A({ identitySecret: SECRET, policy: FAST.policy, ...(maxResponseBytes ? { maxResponseBytes } : {}) }),
    ],
  ] as const;

  for (const [name, make] of entries) {
    it(`${name}: a 1 MiB bound refuses a 2 MiB answer the default takes`, async () => {
      const agent = await answering({ size: 2 * MiB, declared: false });
      const bounded = make(MiB);
      const unbounded = make();
      closers.push(
        () => bounded.close(),
        () => unbounded.close(),
      );
      const error = failed(await turn(bounded, agent.url, 'hi'));
      expect(error).toMatchObject({ kind: 'protocol', operation: 'send' });
      expect(error.message).toContain(`larger than ${MiB} bytes (maxResponseBytes)`);
      expect(completed(await turn(unbounded, agent.url, 'hi'))).toBe('bounded');
    });

    it(`${name}: a bound that is no positive whole number is a config error, not the default`, () => {
      for (const maxResponseBytes of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
        const make = name === 'core' ? createCoreA2A : createNodeA2A;
        expect(() => make({ identitySecret: SECRET, maxResponseBytes }), String(maxResponseBytes)).toThrow(
          expect.objectContaining({
            kind: 'config',
            message: 'invalid option maxResponseBytes: it must be a positive whole number of bytes',
          }),
        );
      }
    });
  }
});

it("createSdkPorts checks its byte bounds the same way (the card's too)", () => {
  for (const bound of ['maxResponseBytes', 'cardMaxBytes'] as const) {
    expect(() => createSdkPorts({ [bound]: 0 })).toThrow(
      expect.objectContaining({ kind: 'config', message: `invalid option ${bound}: it must be a positive whole number of bytes` }),
    );
  }
});
