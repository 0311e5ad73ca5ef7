/** Telemetry: credentials never in it; nothing of it without the option or without an SDK (the kit: telemetry-kit.ts). */
import { lastValueFrom, of, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { REPLY } from '../../fixtures/index.js';
import { createA2A } from '../../src/client/create-a2a.js';
import { otelTelemetry } from '../../src/telemetry/index.js';
import { traceparentOf } from '../../src/telemetry/traceparent.js';
import { agentAttribute } from '../../src/telemetry/turn.js';
import { createFakePort, ev, testCard } from '../../src/testing/index.js';
import { SECRET, TOKEN, agent, proxy, http, client, turn, finished, points, useTelemetryRig } from './telemetry-kit.js';

useTelemetryRig();

describe('credentials stay out of telemetry', () => {
  it('a bearer token sent to the agent appears in no span, event, status or metric', async () => {
    const origin = new URL(proxy.url('/')).origin;
    const secured = client({ credentials: { [origin]: { bearer: TOKEN } } });
    proxy.plan({ on: 'stream', fault: { type: 'cut', afterEvents: 4, mode: 'destroy' } });
    await turn('slow', secured);
    await secured.close();
    expect(agent.received.some((r) => r.headers['authorization'] === `Bearer ${TOKEN}`)).toBe(true);
    const exported = JSON.stringify({
      spans: finished().map((s) => ({ name: s.name, attributes: s.attributes, events: s.events, status: s.status })),
      metrics: await Promise.all(['a2a.turns', 'a2a.turn.first_event', 'a2a.reconnects', 'a2a.cancels'].map(points)),
    });
    expect(exported).toContain('a2a.reconnecting');
    expect(exported).not.toContain(TOKEN);
    expect(exported.toLowerCase()).not.toContain('authorization');
  });

  it('the agent attribute drops user info, query and fragment', () => {
    expect(agentAttribute('https://user:pw@agent.example/a2a/?token=x#f')).toBe('https://agent.example/a2a/');
    expect(agentAttribute('not a url')).toBe('invalid-url');
  });
});

describe('without the option, or without an SDK', () => {
  it('no option: no traceparent on any request, no span', async () => {
    const plain = createA2A({ identitySecret: SECRET, fetch: http.fetch });
    const events = await turn('slow', plain);
    await plain.close();
    expect(events.at(-1)).toMatchObject({ type: 'end', outcome: 'completed' });
    expect(agent.received.every((r) => r.headers['traceparent'] === undefined)).toBe(true);
    expect(finished()).toEqual([]);
  });

  it('otelTelemetry() on the API alone (no SDK registered): the API’s no-ops, no traceparent, the turn as before', async () => {
    const noop = createA2A({ identitySecret: SECRET, fetch: http.fetch, telemetry: otelTelemetry() });
    const events = await turn('status', noop);
    await noop.close();
    expect(events.at(-1)).toMatchObject({ type: 'end', outcome: 'completed', text: REPLY.status });
    expect(agent.received.every((r) => r.headers['traceparent'] === undefined)).toBe(true);
  });

  it('a completed turn whose reply could not be read back: a2a.reply_missing on the span and on a2a.turns', async () => {
    // A final status with nothing shown, and a GetTask that fails (the fake port answers none): the end says replyMissing unread.
    const fake = client({
      ports: () => createFakePort({ card: () => of(testCard()), stream: () => of(ev.task('T', 'working'), ev.status('T', 'completed')) }),
    });
    const events = await lastValueFrom(fake.turn({ agent: 'http://127.0.0.1:1/', handle: 'h', thread: 't', text: 'x' }).pipe(toArray()));
    expect(events.at(-1)).toMatchObject({ type: 'end', outcome: 'completed', text: '', replyMissing: { reason: 'unread' } });
    const [span] = finished();
    expect(span!.attributes).toMatchObject({ 'a2a.outcome': 'completed', 'a2a.reply_missing': 'unread' });
    expect(await points('a2a.turns')).toEqual([
      { attributes: { 'a2a.agent': 'http://127.0.0.1:1/', 'a2a.outcome': 'completed', 'a2a.reply_missing': 'unread' }, value: 1 },
    ]);
  });

  it('a fake port factory gets the turn’s headers; the span’s traceparent is W3C', async () => {
    const seen: unknown[] = [];
    const fake = client({
      ports: (_agent, turn) => {
        seen.push(turn?.headers);
        return createFakePort({ card: () => of(testCard()), stream: () => of(ev.message('hi')) });
      },
    });
    await lastValueFrom(fake.turn({ agent: 'http://127.0.0.1:1/', handle: 'h', thread: 't', text: 'x' }).pipe(toArray()));
    const [span] = finished();
    expect(seen).toEqual([{ traceparent: traceparentOf(span!.spanContext()) }]);
    expect(traceparentOf({ traceId: '0'.repeat(32), spanId: '0'.repeat(16), traceFlags: 0 })).toBeUndefined();
    expect(traceparentOf({ traceId: 'a'.repeat(32), spanId: 'b'.repeat(16), traceFlags: 0 })).toBe(
      `00-${'a'.repeat(32)}-${'b'.repeat(16)}-00`,
    );
  });
});
