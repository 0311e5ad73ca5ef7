import type { Observable } from 'rxjs';
import { cardUrlOf } from '../port/card-url.js';
import type { TurnEvent } from '../port/events.js';
import type { A2APort, PortFactory, PortTurn } from '../port/port.js';
import type { TurnTelemetry } from '../telemetry/turn.js';
import { surfaceAgentOf, surfacesDrawnBy } from './surface-origin.js';

/** The agent a turn is for, its handle and thread (for telemetry and the credentials) and the extensions it activates. */
export interface TurnTarget {
  agent: string;
  handle?: string;
  thread?: string;
  extensions?: readonly string[];
}

/**
 * What a call of the client adds to its port: the extensions it activates, the trace headers, and
 * its caller (the handle and thread, when it has both: the credentials are made for them). Undefined
 * when it adds nothing.
 */
export function portTurn(target: Omit<TurnTarget, 'agent'>, headers?: Readonly<Record<string, string>>): PortTurn | undefined {
  const extensions = target.extensions?.length ? target.extensions : undefined;
  const caller = target.handle !== undefined && target.thread !== undefined ? { handle: target.handle, thread: target.thread } : undefined;
  if (headers === undefined && extensions === undefined && caller === undefined) return undefined;
  return { ...(headers && { headers }), ...(extensions && { extensions }), ...(caller && { caller }) };
}

/** Runs a turn on its agent's port: `run` gets the port (with the turn's extensions, traced when the client has telemetry). */
export type OnPort = (target: TurnTarget, run: (port: A2APort) => Observable<TurnEvent>) => Observable<TurnEvent>;

/**
 * The client's {@link OnPort}: a port per turn from `ports` (making one costs about a microsecond, a
 * URL parse; the card cache behind the factory is shared), with the turn's extensions and caller; with
 * telemetry, the turn traced and its port decorated. Without telemetry a turn does no telemetry work.
 * The turn's surfaces name their agent ({@link surfacesDrawnBy}).
 */
export function onPort(ports: PortFactory, telemetry: TurnTelemetry | undefined): OnPort {
  return (target, run) => {
    const drawn = surfacesDrawnBy(surfaceAgentOf(cardUrlOf(target.agent)));
    if (telemetry === undefined) return run(ports(target.agent, portTurn(target))).pipe(drawn);
    return telemetry.turn(target.agent, target.handle ?? '', (headers, traced) =>
      run(traced(ports(target.agent, portTurn(target, headers)))).pipe(drawn),
    );
  };
}
