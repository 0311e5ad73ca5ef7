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
