import { lastValueFrom, toArray } from 'rxjs';
import { expect } from 'vitest';
import { AUTH_SECRETS } from '../../fixtures/agent-auth.js';
import type { FixtureAgent, ReceivedRequest } from '../../fixtures/index.js';
import { A2AError } from '../../src/errors.js';
import type { Logger } from '../../src/logger.js';
import { createA2A } from '../../src/node/create-a2a.js';
import type { TurnEvent } from '../../src/port/events.js';
import type { CredentialsOption } from '../../src/sdk/http/credentials/options.js';
import { FAST, endOf } from './harness.js';

/** What the credentials tests share: a client, a turn as events or its error, the requests a mount saw. */
const SECRET = 'credentials test identity secret 0123456789';

/** A logger that keeps every line. */
export function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const line = (level: string) => (fields: Record<string, unknown>, message: string) =>
    lines.push(`${level} ${message} ${JSON.stringify(fields)}`);
  return { lines, debug: line('debug'), info: line('info'), warn: line('warn'), error: line('error') };
}

export function client(credentials?: CredentialsOption, logger?: Logger) {
  return createA2A({ identitySecret: SECRET, policy: FAST.policy, ...(credentials ? { credentials } : {}), ...(logger ? { logger } : {}) });
}

let threads = 0;
/** One turn's events, or its error. */
export async function turn(a2a: ReturnType<typeof client>, agent: string, text: string): Promise<TurnEvent[] | A2AError> {
  return lastValueFrom(a2a.turn({ agent, handle: 'h', thread: `t${threads++}`, text }).pipe(toArray())).catch((error: A2AError) => error);
}

export function completed(result: TurnEvent[] | A2AError): string {
  if (result instanceof Error) throw result;
  const end = endOf(result);
  expect(end.outcome).toBe('completed');
  return end.text;
}

export function failed(result: TurnEvent[] | A2AError): A2AError {
  if (!(result instanceof A2AError)) throw new Error(`expected an error, the turn ended ${JSON.stringify(result.at(-1))}`);
  return result;
}

/** The requests of a mount since `from`, split into the card fetches and the protocol calls. */
export function requests(fixture: FixtureAgent, mount: string, from = 0): { card: ReceivedRequest[]; calls: ReceivedRequest[] } {
  const mine = fixture.received.slice(from).filter((r) => r.mount === mount);
  return {
    card: mine.filter((r) => r.method.endsWith('agent-card.json')),
    calls: mine.filter((r) => !r.method.endsWith('agent-card.json')),
  };
}

export const BEARER = `Bearer ${AUTH_SECRETS.bearer}`;
