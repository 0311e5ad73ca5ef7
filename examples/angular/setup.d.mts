/** Types of setup.mjs, for the TypeScript tests. */

/** This example's folder. */
export declare const EXAMPLE: string;
/** `npm ci` in the example when its lock changed; then the library copied in anew. */
export declare function installAngularExample(): Promise<string>;
/** `ng build` into dist/browser; resolves with its output, rejects with it in the message. */
export declare function buildAngularExample(): Promise<string>;
