/** Types of setup.mjs, for the TypeScript tests. */

/** This example's folder. */
export declare const EXAMPLE: string;
/** `npm ci` in the example when its lock changed; then the library copied in anew. */
export declare function installAngularExample(): Promise<string>;
/** `ng build` into dist/browser; resolves with its output, rejects with it in the message. */
export declare function buildAngularExample(): Promise<string>;
/** Whether the example's dependencies are installed as its lock says. */
export declare function installedUpToDate(): Promise<boolean>;
/** Copies the library in from this checkout when the example is installed; throws, saying what to run, when it is not. */
export declare function refreshAngularExample(): Promise<void>;
