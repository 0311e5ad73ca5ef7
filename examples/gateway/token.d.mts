/** Types of token.mjs, for the TypeScript tests. */

export declare const DEV_ISSUER: string;
export declare const DEV_AUDIENCE: string;

export interface DevIssuer {
  /** The folder of the key and its JWKS. */
  dir: string;
  /** The JWKS file replicas trust. */
  jwksFile: string;
  issuer: string;
  audience: string;
  /** A token whose subject is `user`, for `ttlSeconds` (default an hour). */
  sign(user: string, options?: { ttlSeconds?: number }): Promise<string>;
}

export declare function devIssuerDir(): string;
export declare function devIssuer(dir?: string): Promise<DevIssuer>;
