/** Types of push-path.mjs, for the TypeScript tests. */
export declare const PUSH_PATH: string;
export declare const PUSH_NAME: RegExp;
/** Throws for a name that cannot stand in the path. */
export declare function pushPathOf(name: string): string;
export declare function isPushPath(pathname: string): boolean;
