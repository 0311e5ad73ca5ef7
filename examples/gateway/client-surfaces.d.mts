/** Types of client-surfaces.mjs, for the TypeScript tests. */

type Frame = { type: string; [key: string]: unknown };

/** What the A2UI frames of one turn gave the caller, to drop what a resumed stream gives again. */
export declare class SurfaceReplays {
  /** Messages and refusals a later stream gave again, dropped. */
  dropped: number;
  /** A new stream begins. */
  stream(): void;
  /** The frame as the caller gets it: a surface without what was given already (undefined when none is left); a refusal given again, undefined. */
  take(data: Frame): Frame | undefined;
}

/** The command's line for an A2UI frame: once per surface (added to `told`), and each refusal; undefined otherwise. */
export declare function surfaceNotice(told: Set<string>, data: Frame): string | undefined;

/** One A2UI message as the gateway sends it (sse.mjs): read and checked by the library, for a renderer's message processor. */
export interface GatewaySurfaceMessage {
  /** `createSurface`, `updateComponents`, `updateDataModel`, `deleteSurface`, `actionResponse`; v0.8's `beginRendering`, …. */
  kind: string;
  /** The surface it is about (absent only on an `actionResponse`). */
  surfaceId?: string;
  /** The version it says (`"v1.0"`, `"v0.9"`); absent on v0.8. */
  version?: string;
  /** The message as the agent sent it. */
  message: Record<string, unknown>;
}

/** A `surface` frame: messages about one surface, in order, to hand to a renderer together. */
export interface GatewaySurface {
  type: 'surface';
  surfaceId: string;
  messages: GatewaySurfaceMessage[];
}

/** A `surface-refused` frame: one of the agent's A2UI messages was refused (nothing of it is sent). */
export interface GatewaySurfaceRefused {
  type: 'surface-refused';
  /** `unsafe-url`, `too-deep`, `too-large`, `malformed`, `too-many-surfaces`, `too-many-components`. */
  reason: string;
  /** The gateway's sentence for the reason. */
  message: string;
  /** The surface the message was about, when it named one that does not read as a URL. */
  surfaceId?: string;
}

/** A surface as the turn left it (the `end`'s `surfaces`): its messages since it was created, to replay. */
export interface GatewaySurfaceView {
  surfaceId: string;
  messages: GatewaySurfaceMessage[];
}
