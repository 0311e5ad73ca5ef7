import { lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { createA2A } from '../../../src/client/create-a2a.js';
import { type NodeFetch } from '../../../src/node/fetch.js';
import { createSdkPorts } from '../../../src/sdk/ports.js';
import type { A2ATelemetry, TelemetrySpan } from '../../../src/telemetry/types.js';
import { runCli } from '../../cli/run-cli.js';
import { sendJson, sseFrame, startRawAgent, type RawAgent } from '../raw-agent.js';
import { useAgentRig } from '../../agent-rig.js';

/** The hosted agent's API key, carried in the agent URL's query: it must appear in no output. */
const KEY = 'qk-7f3a9c1e5b2d8046';

/**
 * A hosted agent that wants `?key=KEY` on every request, its card included (401 without it); its
 * card names its interface without the key, on its own origin or, with `elsewhere`, on another's.
 */
async function keyedAgent(seen: string[], elsewhere?: string): Promise<RawAgent> {
  return startRawAgent((req, res, { base, rpc }) => {
    const url = new URL(req.url ?? '/', base);
    seen.push(`${req.method} ${url.pathname}${url.search}`);
    if (url.searchParams.get('key') !== KEY) return sendJson(res, { error: 'unauthorized' }, {}, 401);
    if (url.pathname.startsWith('/missing/')) return sendJson(res, { error: 'no such agent' }, {}, 404);
    if (rpc === undefined) {
      return sendJson(res, {
        name: 'hosted',
        supportedInterfaces: [{ url: `${elsewhere ?? base}rpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
        capabilities: { streaming: true },
      });
    }
    const task = { id: 'T', contextId: 'C', status: { state: 'TASK_STATE_COMPLETED' } };
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.end(sseFrame(rpc.id, { task: { ...task, artifacts: [{ artifactId: 'A', parts: [{ text: 'Keyed answer.' }] }] } }));
  });
}

/** A tracer that writes down every name, attribute and event a span is given. */
function recordingTelemetry(out: string[]): A2ATelemetry {
  const span: TelemetrySpan = {
    spanContext: () => ({ traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', traceFlags: 1 }),
    setAttribute: (key, value) => out.push(`${key}=${String(value)}`),
    addEvent: (name, attributes) => out.push(`${name} ${JSON.stringify(attributes ?? {})}`),
    setStatus: (status) => out.push(JSON.stringify(status)),
    end: () => undefined,
  };
  return { tracer: { startSpan: (name, options) => (out.push(`${name} ${JSON.stringify(options ?? {})}`), span) } };
}

describe("an agent URL's query (?key=…)", () => {
  let http: NodeFetch;
  let agent: RawAgent;
  const seen: string[] = [];
  useAgentRig(
    () => keyedAgent(seen),
    (a, h) => ([agent, http] = [a, h]),
  );

  it('goes with the card fetch and every call, and is part of the card cache key', async () => {
    seen.length = 0;
    const ports = createSdkPorts({ fetch: http.fetch });
    const events = await lastValueFrom(
      createA2A({ identitySecret: 'x'.repeat(32), ports })
        .turn({ agent: `${agent.url}?key=${KEY}`, handle: 'h', thread: 't', text: 'hi' })
        .pipe(toArray()),
    );
    expect(events.at(-1)).toMatchObject({ type: 'end', outcome: 'completed', text: 'Keyed answer.' });
    // The card, the thread's first-message ListTasks, the stream: each with the key.
    expect(seen).toEqual([`GET /.well-known/agent-card.json?key=${KEY}`, `POST /rpc?key=${KEY}`, `POST /rpc?key=${KEY}`]);
    // Another key is another agent to the cache: its card is fetched (and refused) on its own.
    await expect(lastValueFrom(ports(`${agent.url}?key=other`).card())).rejects.toMatchObject({ kind: 'auth', status: 401 });
    expect(seen.at(-1)).toBe('GET /.well-known/agent-card.json?key=other');
  });

  it('never goes to another origin the card names', async () => {
    const otherSeen: string[] = [];
    const other = await keyedAgent(otherSeen);
    const pointing = await keyedAgent([], other.url);
    try {
      const ports = createSdkPorts({ fetch: http.fetch });
      // The other origin wants the key too and refuses the call without it: the key was not sent there.
      await expect(lastValueFrom(ports(`${pointing.url}?key=${KEY}`).stream({ text: 'hi' }))).rejects.toMatchObject({ status: 401 });
      expect(otherSeen).toEqual(['POST /rpc']);
    } finally {
      await Promise.all([other.close(), pointing.close()]);
    }
  });

  it('is redacted from every error, log line, span and CLI output', async () => {
    const out: string[] = [];
    const logger = {
      debug: (f: object, m: string) => void out.push(m, JSON.stringify(f)),
      info: (f: object, m: string) => void out.push(m, JSON.stringify(f)),
      warn: (f: object, m: string) => void out.push(m, JSON.stringify(f)),
      error: (f: object, m: string) => void out.push(m, JSON.stringify(f)),
    };
    const a2a = createA2A({
      identitySecret: 'x'.repeat(32),
      logger,
      telemetry: recordingTelemetry(out),
      ports: createSdkPorts({ fetch: http.fetch, logger }),
    });
    try {
      const good = await lastValueFrom(
        a2a.turn({ agent: `${agent.url}?key=${KEY}`, handle: 'h', thread: 'r', text: 'hi' }).pipe(toArray()),
      );
      out.push(JSON.stringify(good));
      for (const url of [`${agent.url}missing/?key=${KEY}`, `${agent.url}?key=${KEY}x`, `not a url?key=${KEY}`]) {
        const error = await lastValueFrom(a2a.turn({ agent: url, handle: 'h', thread: 'r', text: 'hi' })).catch((e: unknown) => e as Error);
        out.push(String(error), JSON.stringify(error), (error as Error).message);
        await lastValueFrom(a2a.card(url)).catch((e: Error) => out.push(e.message, JSON.stringify(e)));
      }
      expect(out.join('\n')).toContain('key=***');
    } finally {
      await a2a.close();
    }
    // The command's runs side by side: each is a process, slow to start on a busy machine.
    const runs = await Promise.all(
      [
        ['send', `${agent.url}?key=${KEY}`, 'hi'],
        ['send', `${agent.url}?key=${KEY}`, '--json', 'hi'],
        ['send', `${agent.url}missing/?key=${KEY}`, 'hi'],
        ['send', `${agent.url}missing/?key=${KEY}`, '--json', 'hi'],
        ['card', `${agent.url}?key=${KEY}`],
        ['card', `${agent.url}?key=${KEY}`, '--json'],
        ['card', `${agent.url}missing/?key=${KEY}`],
      ].map((args) => runCli(args)),
    );
    for (const { stdout, stderr } of runs) out.push(stdout, stderr);
    expect(out.join('\n')).not.toContain(KEY);
  }, 60_000);
});
