/**
 * The demo agent's signed card (`--sign-card`): a key made at start, the card signed with it by the
 * SDK on every fetch, and the key's public half written as a JWKS to a file, for a client to trust
 * (`a4h card URL --trust-jwks FILE --require-signed-card`).
 */
import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { AgentCardSignatureGenerator } from '@a2a-js/sdk';
import { cardSigner, jwksOf, makeSigningKey } from '../fixtures/signing.js';
import { defaultMemoryFile } from './memory-file.js';

/** What signing gives the agent: the SDK's signer and where the JWKS went. */
export interface CardSigning {
  sign: AgentCardSignatureGenerator;
  /** The key's id, the `kid` of every signature. */
  kid: string;
  /** The file holding the JWKS (the public key). */
  jwksFile: string;
}

/** The default JWKS file of an agent on `port`: beside the default memory file, in the user's own folder. */
export function defaultJwksFile(port: number): string {
  return join(dirname(defaultMemoryFile()), `jwks-${port}.json`);
}

/** Makes a key, writes its JWKS to `jwksFile` (its folder created, the user's own), and returns the signer. */
export async function signCardWithNewKey(jwksFile: string): Promise<CardSigning> {
  const key = makeSigningKey(`demo-${randomUUID().slice(0, 8)}`);
  await mkdir(dirname(jwksFile), { recursive: true, mode: 0o700 });
  await writeFile(jwksFile, `${JSON.stringify(jwksOf(key), null, 2)}\n`);
  return { sign: cardSigner(key), kid: key.kid, jwksFile };
}
