/**
 * The A2UI gateway tests' rig: the A2UI fixture agent (fixtures/agent-a2ui.ts) behind three replicas and
 * Debian's haproxy, a development issuer's token for one user, and a turn followed through haproxy with
 * every event the client gave kept. Started before the calling file's tests, stopped after them.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { startA2UIAgent, type A2UIAgents } from '../../fixtures/agent-a2ui.js';
import { followTurn, type Followed } from '../../examples/gateway/client-follow.mjs';
import type { GatewaySurface } from '../../examples/gateway/client-surfaces.mjs';
import { startCluster, type Cluster } from '../../examples/gateway/cluster.mjs';
import { HAPROXY } from '../../examples/gateway/haproxy.mjs';
import { devIssuer } from '../../examples/gateway/token.mjs';

/** An event the client gave. */
export type GivenEvent = { type: string; [key: string]: unknown };

/** What a followed turn gives: its end as the client saw it, and every event it gave. */
export interface FollowedTurn {
  followed: Followed;
  events: GivenEvent[];
}

/** The started rig's parts, read once its `beforeAll` has run. */
export interface A2UIRig {
  readonly agents: A2UIAgents;
  readonly cluster: Cluster;
  readonly token: string;
  /** A turn on `thread` through haproxy (`more`: followTurn's options, `text` or an action's fields), every event kept. */
  follow(thread: string, more: Partial<Parameters<typeof followTurn>[0]>): Promise<FollowedTurn>;
}

/** How the rig is made: its folder's prefix, the replicas' secret, the token's user, the agent's options. */
export interface A2UIRigOptions {
  prefix: string;
  secret: string;
  user: string;
  agent?: Parameters<typeof startA2UIAgent>[0];
}

/** The rig for the calling file: started before its tests (30 s at most), stopped after them. */
export function useA2UIRig(options: A2UIRigOptions): A2UIRig {
  let parts: { agents: A2UIAgents; cluster: Cluster; token: string } | undefined;
  let dir: string | undefined;
  let agents: A2UIAgents | undefined;
  let cluster: Cluster | undefined;
  beforeAll(async () => {
    if (!existsSync(HAPROXY)) throw new Error(`${HAPROXY} is missing: run sh scripts/ensure-debian.sh (npm test does)`);
    dir = await mkdtemp(join(tmpdir(), options.prefix));
    const issuer = await devIssuer(join(dir, 'issuer'));
    const token = await issuer.sign(options.user);
    agents = await startA2UIAgent(options.agent);
    const auth = { jwks: issuer.jwksFile, issuer: issuer.issuer, audience: issuer.audience };
    cluster = await startCluster({ agent: agents.v1.url('/'), secret: options.secret, auth });
    parts = { agents, cluster, token };
  }, 30_000);
  afterAll(async () => {
    await cluster?.stop();
    await agents?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });
  const started = () => {
    if (parts === undefined) throw new Error('the A2UI gateway rig did not start');
    return parts;
  };
  return {
    get agents() {
      return started().agents;
    },
    get cluster() {
      return started().cluster;
    },
    get token() {
      return started().token;
    },
    async follow(thread, more) {
      const events: GivenEvent[] = [];
      const followed = await followTurn({
        gateway: started().cluster.url,
        token: started().token,
        thread,
        ...more,
        onEvent: (event, id) => {
          events.push(event);
          more.onEvent?.(event, id);
        },
      });
      return { followed, events };
    },
  };
}

/** The surface frames among a turn's events. */
export const surfacesOf = (events: Array<{ type: string }>) => events.filter((e): e is GatewaySurface => e.type === 'surface');
