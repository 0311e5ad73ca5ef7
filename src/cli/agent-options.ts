import type { NodeA2AOptions } from '../node/create-a2a.js';
import { credentialsFrom, CREDENTIAL_OPTIONS, type CredentialFlags } from './credentials.js';
import { TLS_OPTIONS, tlsFrom, type TlsFlags } from './tls.js';
import { TRUST_OPTIONS, trustFrom, type TrustFlags } from './trust.js';

/** The flags that say how to reach an agent and what to trust of it: credentials, mutual TLS and signed cards. */
export const AGENT_OPTIONS = { ...CREDENTIAL_OPTIONS, ...TLS_OPTIONS, ...TRUST_OPTIONS } as const;

/**
 * The client options the agent flags give for `agent`: its credentials and client certificate (scoped
 * to its origin) and the keys its card is checked with, each only when a flag gave it.
 */
export async function agentOptions(
  flags: CredentialFlags & TlsFlags & TrustFlags,
  agent: string,
  env: NodeJS.ProcessEnv,
): Promise<Pick<NodeA2AOptions, 'credentials' | 'tls' | 'trust'>> {
  const credentials = credentialsFrom(flags, agent, env);
  const tls = await tlsFrom(flags, agent, env);
  const trust = await trustFrom(flags);
  return { ...(credentials ? { credentials } : {}), ...(tls ? { tls } : {}), ...(trust ? { trust } : {}) };
}
