import type { Observable } from 'rxjs';
import type { TurnEvent } from '../port/events.js';
import type { A2APort, PortFactory } from '../port/port.js';
import type { TurnTelemetry } from '../telemetry/turn.js';

/** The agent a turn is for, its handle (for telemetry) and the extensions it activates. */
export interface TurnTarget {
  agent: string;
  handle?: string;
  extensions?: readonly string[];
}

/** Runs a turn on its agent's port: `run` gets the port (with the turn's extensions, traced when the client has telemetry). */
export type OnPort = (target: TurnTarget, run: (port: A2APort) => Observable<TurnEvent>) => Observable<TurnEvent>;

/**
 * The client's {@link OnPort}: a port per turn from `ports` (making one costs about a microsecond, a
 * URL parse; the card cache behind the factory is shared), with the turn's extensions; with
 * telemetry, the turn traced and its port decorated. Without telemetry a turn does no telemetry work.
 */
export function onPort(ports: PortFactory, telemetry: TurnTelemetry | undefined): OnPort {
  return (target, run) => {
    const extensions = target.extensions?.length ? target.extensions : undefined;
    if (telemetry === undefined) return run(ports(target.agent, extensions && { extensions }));
    return telemetry.turn(target.agent, target.handle ?? '', (headers, traced) =>
      run(
        traced(ports(target.agent, headers || extensions ? { ...(headers && { headers }), ...(extensions && { extensions }) } : undefined)),
      ),
    );
  };
}
