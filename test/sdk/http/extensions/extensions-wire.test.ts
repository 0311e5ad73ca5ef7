import { TracerProvider } from '@opentelemetry/sdk-trace';
import { lastValueFrom, toArray } from 'rxjs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startV1Agent, type FixtureAgent, type ReceivedRequest } from '../../../../fixtures/index.js';
import { createA2A } from '../../../../src/client/create-a2a.js';
import { otelTelemetry } from '../../../../src/telemetry/index.js';
import { runTurn } from '../../../../src/turn/turn.js';
import { collect, endOf, FAST, rig, TARGETS, V03_REST, type Rig } from '../../harness.js';

const CARD = 'GET /.well-known/agent-card.json';
const AGENT_EXTENSION = 'https://extensions.example/agent-wide/v1';
const TURN_EXTENSION = 'urn:example:turn-only';

/**
 * The extensions a turn activates go on every call of the turn, in each binding and generation: the
 * agent's (the `extensions` option, by origin) then the turn's, once each, comma-separated. v1.0:
 * `A2A-Extensions`; v0.3: `X-A2A-Extensions` and `A2A-Extensions` (both readers, both bindings). The
 * card request carries none.
 */
for (const target of [...TARGETS, V03_REST]) {
  const legacy = !target.name.startsWith('v1');
  describe(`${target.name}: the turn's extensions on every call`, () => {
    let r: Rig;
    afterEach(() => r.close());

    it(`stream, resubscribe, GetTask, CancelTask${legacy ? '' : ', ListTasks'} and send carry ${legacy ? 'both header names' : 'A2A-Extensions'}`, async () => {
      r = await rig(target, undefined, (agent) => ({ extensions: { [agent.baseUrl]: [AGENT_EXTENSION] } }));
      const port = r.ports(r.agent.url(target.main), { extensions: [TURN_EXTENSION, AGENT_EXTENSION] });
      const end = endOf(await collect(runTurn(port, { text: 'drop', contextId: 'ctx-extensions' }, FAST)));
      expect(end.outcome).toBe('completed');
      await lastValueFrom(port.getTask(end.taskId!));
      await lastValueFrom(port.cancel(end.taskId!)).catch(() => undefined); // a completed task is not cancelable; the request still counts
      if (!legacy) await lastValueFrom(port.listTasks!('ctx-extensions'));
      await lastValueFrom(port.send({ text: 'artifacts' }));

      const calls = r.agent.received.filter((request) => request.method !== CARD);
      expect(calls.some((request) => target.is('resubscribe', request))).toBe(true);
      expect(calls.length).toBeGreaterThanOrEqual(legacy ? 5 : 6);
      const both = `${AGENT_EXTENSION},${TURN_EXTENSION}`;
      for (const request of calls) {
        expect(extensionsOf(request), request.method).toEqual(legacy ? { modern: both, legacy: both } : { modern: both });
      }
      for (const request of r.agent.received.filter((request) => request.method === CARD)) expect(extensionsOf(request)).toEqual({});
    });

    it('a turn without extensions sends no extensions header', async () => {
      r = await rig(target);
      await collect(runTurn(r.ports(r.agent.url(target.main)), { text: 'artifacts' }, FAST));
      for (const request of r.agent.received) expect(extensionsOf(request), request.method).toEqual({});
    });
  });
}

/** The extensions headers a request carried, by name. */
function extensionsOf(request: ReceivedRequest): { modern?: string; legacy?: string } {
  const modern = request.headers['a2a-extensions'];
  const legacy = request.headers['x-a2a-extensions'];
  return { ...(modern === undefined ? {} : { modern }), ...(legacy === undefined ? {} : { legacy }) };
}

describe("through the client: the extensions option and a turn's own, with and without telemetry", () => {
  let agent: FixtureAgent;
  beforeAll(async () => {
    agent = await startV1Agent();
  });
  afterAll(() => agent.close());

  for (const traced of [false, true]) {
    it(`${traced ? 'with' : 'without'} telemetry: the agent's then the turn's on each call${traced ? ', beside the traceparent' : ''}`, async () => {
      const tracerProvider = new TracerProvider();
      const a2a = createA2A({
        identitySecret: 'extensions wire test secret 0123456789',
        policy: FAST.policy,
        extensions: { [agent.baseUrl]: [AGENT_EXTENSION] },
        ...(traced ? { telemetry: otelTelemetry({ tracerProvider }) } : {}),
      });
      const from = agent.received.length;
      try {
        const events = await lastValueFrom(
          a2a
            .turn({ agent: agent.url('/'), handle: 'h', thread: `client-${traced}`, text: 'drop', extensions: [TURN_EXTENSION] })
            .pipe(toArray()),
        );
        expect(events.at(-1)).toMatchObject({ type: 'end', outcome: 'completed' });
        // Another agent of the option's origin gets the agent's alone when the turn adds none.
        await lastValueFrom(a2a.turn({ agent: agent.url('/nostream/'), handle: 'h', thread: `client-${traced}`, text: 'artifacts' }));
      } finally {
        await a2a.close();
      }
      const calls = agent.received.slice(from).filter((request) => request.method !== CARD);
      const main = calls.filter((request) => request.mount === '/');
      expect(main.map((request) => request.method)).toEqual(expect.arrayContaining(['SendStreamingMessage', 'SubscribeToTask']));
      for (const request of main) {
        expect(extensionsOf(request), request.method).toEqual({ modern: `${AGENT_EXTENSION},${TURN_EXTENSION}` });
        if (traced) expect(request.headers['traceparent'], request.method).toMatch(/^00-/);
      }
      const nostream = calls.filter((request) => request.mount === '/nostream/');
      expect(nostream.length).toBeGreaterThan(0);
      for (const request of nostream) expect(extensionsOf(request), request.method).toEqual({ modern: AGENT_EXTENSION });
    });
  }
});
