/** Types of auth.mjs, for the TypeScript tests. */

/** Where tokens come from: the identity provider's keys (a JWKS file or URL), its issuer, the audience. */
export interface AuthOptions {
  jwks: string;
  issuer: string;
  audience: string;
}

export declare function tokenVerifier(options: AuthOptions): Promise<(authorization: string | undefined) => Promise<string>>;
