import type { NodeA2AOptions } from '../node/create-a2a.js';
import { credentialsFrom, CREDENTIAL_OPTIONS, type CredentialFlags } from './credentials.js';
import { TRUST_OPTIONS, trustFrom, type TrustFlags } from './trust.js';

/** The flags that say how to reach an agent and what to trust of it: credentials and signed cards. */
export const AGENT_OPTIONS = { ...CREDENTIAL_OPTIONS, ...TRUST_OPTIONS } as const;

/**
 * The client options the agent flags give for `agent`: its credentials (scoped to its origin) and the
 * keys its card is checked with, each only when a flag gave it.
 */
export async function agentOptions(
  flags: CredentialFlags & TrustFlags,
  agent: string,
  env: NodeJS.ProcessEnv,
): Promise<Pick<NodeA2AOptions, 'credentials' | 'trust'>> {
  const credentials = credentialsFrom(flags, agent, env);
  const trust = await trustFrom(flags);
  return { ...(credentials ? { credentials } : {}), ...(trust ? { trust } : {}) };
}
