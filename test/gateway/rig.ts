/**
 * What the gateway tests stand on: a temporary folder, a development token issuer and one user's token, the
 * demo agent, a far agent in front of it (a proxy some milliseconds away) and, unless a test starts its own
 * replica, the gateway example's cluster behind Debian's haproxy.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { startDemoAgent, type DemoAgent, type DemoAgentOptions } from '../../demo/agent.js';
import { startCluster, type Cluster, type ClusterOptions } from '../../examples/gateway/cluster.mjs';
import { HAPROXY } from '../../examples/gateway/haproxy.mjs';
import { startGateway, type Gateway } from '../../examples/gateway/replica.mjs';
import { FAIR_USE_OFF, type FairUseOptions } from '../../examples/gateway/fair-use.mjs';
import { devIssuer, type DevIssuer } from '../../examples/gateway/token.mjs';
import { startFarAgent, type FarAgent } from './far-agent.js';

/** The gateway's auth settings for a development issuer. */
export interface RigAuth {
  jwks: string;
  issuer: string;
  audience: string;
}

/** How a gateway test's rig is made. */
export interface RigOptions {
  /** Names the temporary folder (`<prefix>` then random characters). */
  prefix: string;
  /** The identity secret of the cluster's replicas. */
  secret: string;
  /** The user the token is signed for. */
  user: string;
  /** The token's lifetime; the issuer's default when not given. */
  tokenTtlSeconds?: number;
  /** The demo agent's options beyond its port and memory file. */
  agent?: Omit<DemoAgentOptions, 'port' | 'memoryFile'>;
  /** The far agent's round trip, in ms. */
  rttMs: number;
  /** The far agent's ear on each request's body (startFarAgent's `onRequest`). */
  onRequest?: (body: string) => void;
  /** Where each request's JSON-RPC method is noted as it leaves for the agent (`(no method)` for one without). */
  methods?: string[];
  /** How long the far agent holds a request before the agent has it (startFarAgent's `holdMs`). */
  holdMs?: (body: string) => number;
  /**
   * The cluster's options beyond its agent, secret and auth; `false`: no cluster (the test starts its replica).
   * Its replicas run without fair-use limits (the tests drive many turns as one user) unless `fairUse` says.
   */
  cluster?: Omit<ClusterOptions, 'agent' | 'secret' | 'auth'> | false;
  /** What must be there first: haproxy (for a cluster) and the built library. Default: both. */
  needs?: { haproxy?: boolean; build?: boolean };
}

/** A started rig; `close` stops the cluster, the far agent and the agent, and removes the folder. */
export interface GatewayRig {
  dir: string;
  token: string;
  auth: RigAuth;
  agent: DemoAgent;
  far: FarAgent;
  /** Undefined when `cluster` was `false`. */
  cluster: Cluster | undefined;
  close(): Promise<void>;
}

/** Starts a rig; throws first when haproxy or the built library a test needs is missing. */
export async function startGatewayRig(options: RigOptions): Promise<GatewayRig> {
  const { haproxy = true, build = true } = options.needs ?? {};
  if (haproxy && !existsSync(HAPROXY)) throw new Error(`${HAPROXY} is missing: run sh scripts/ensure-debian.sh (npm test does)`);
  if (build && !existsSync(new URL('../../dist/node/index.js', import.meta.url))) throw new Error('run npm run build first');
  const dir = await mkdtemp(join(tmpdir(), options.prefix));
  let agent: DemoAgent | undefined;
  let far: FarAgent | undefined;
  let cluster: Cluster | undefined;
  const close = async () => {
    await cluster?.stop();
    await far?.close();
    await agent?.close();
    await rm(dir, { recursive: true, force: true });
  };
  try {
    const issuer = await devIssuer(join(dir, 'issuer'));
    const token = await (options.tokenTtlSeconds === undefined
      ? issuer.sign(options.user)
      : issuer.sign(options.user, { ttlSeconds: options.tokenTtlSeconds }));
    const auth = { jwks: issuer.jwksFile, issuer: issuer.issuer, audience: issuer.audience };
    agent = await startDemoAgent({ port: 0, memoryFile: join(dir, 'memory.json'), ...options.agent });
    const { methods, onRequest } = options;
    const heard =
      methods === undefined
        ? onRequest
        : (body: string) => {
            methods.push(methodOf(body));
            onRequest?.(body);
          };
    far = await startFarAgent(agent.url, options.rttMs, heard, options.holdMs);
    if (options.cluster !== false)
      cluster = await startCluster({ agent: far.url, secret: options.secret, auth, fairUse: FAIR_USE_OFF, ...options.cluster });
    return { dir, token, auth, agent, far, cluster, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** A started rig's parts, read once its `beforeAll` has run. */
export interface StartedRig {
  readonly token: string;
  readonly auth: RigAuth;
  readonly agent: DemoAgent;
  readonly far: FarAgent;
  /** Throws when the rig was made without a cluster. */
  readonly cluster: Cluster;
}

/**
 * A rig for the calling file (or `describe`): started before its tests, within `timeoutMs`; closed after them (after
 * the file's own `afterAll` hooks, which vitest runs last registered first).
 */
export function useGatewayRig(options: RigOptions, timeoutMs = 30_000): StartedRig {
  return useRig(options, timeoutMs);
}

/**
 * {@link useGatewayRig} with its folder's prefix, its secret and its user first: what every file's rig
 * names, said in one line.
 */
export function rigOf(
  prefix: string,
  secret: string,
  user: string,
  options: Omit<RigOptions, 'prefix' | 'secret' | 'user'>,
  timeoutMs?: number,
): StartedRig {
  return useRig({ prefix, secret, user, ...options }, timeoutMs ?? 30_000);
}

function useRig(options: RigOptions, timeoutMs: number): StartedRig {
  let rig: GatewayRig | undefined;
  beforeAll(async () => {
    rig = await startGatewayRig(options);
  }, timeoutMs);
  afterAll(() => rig?.close());
  const started = (): GatewayRig => {
    if (rig === undefined) throw new Error('the gateway rig did not start');
    return rig;
  };
  return {
    get token() {
      return started().token;
    },
    get auth() {
      return started().auth;
    },
    get agent() {
      return started().agent;
    },
    get far() {
      return started().far;
    },
    get cluster() {
      const { cluster } = started();
      if (cluster === undefined) throw new Error('this rig has no cluster');
      return cluster;
    },
  };
}

/** One gateway replica named `solo` in front of the demo agent, trusting a development issuer. */
export interface SoloGateway {
  dir: string;
  issuer: DevIssuer;
  agent: DemoAgent;
  gateway: Gateway;
  /** Closes the gateway and the agent; removes the folder. */
  close(): Promise<void>;
}

/**
 * Starts a solo gateway: a folder named by `prefix`, its issuer, the demo agent with `agent`, the replica with `log`
 * and `fairUse` (default: no limits).
 */
export async function startSoloGateway(options: {
  prefix: string;
  secret: string;
  agent?: Omit<DemoAgentOptions, 'port' | 'memoryFile'>;
  log?: (line: string) => void;
  fairUse?: FairUseOptions;
}): Promise<SoloGateway> {
  const dir = await mkdtemp(join(tmpdir(), options.prefix));
  const issuer = await devIssuer(join(dir, 'issuer'));
  const agent = await startDemoAgent({ port: 0, memoryFile: join(dir, 'memory.json'), ...options.agent });
  const gateway = await startGateway({
    agent: agent.url,
    secret: options.secret,
    name: 'solo',
    fairUse: options.fairUse ?? FAIR_USE_OFF,
    auth: { jwks: issuer.jwksFile, issuer: issuer.issuer, audience: issuer.audience },
    ...(options.log ? { log: options.log } : {}),
  });
  return {
    dir,
    issuer,
    agent,
    gateway,
    async close() {
      await gateway.close();
      await agent.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** A request body's JSON-RPC method, or `(no method)`. */
export function methodOf(body: string): string {
  return /"method":\s*"([^"]+)"/.exec(body)?.[1] ?? '(no method)';
}
