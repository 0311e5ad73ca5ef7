/**
 * The rig most tests against an agent stand on: the agent and a Node fetch, started before the tests of the
 * calling `describe` (or file) and closed after them (the fetch first).
 */
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { startOAuthAgents, type OAuthAgents } from '../fixtures/agent-oauth.js';
import { startFaultProxy, type FaultProxy } from '../fixtures/fault-proxy.js';
import { startV03Agent, startV1Agent, type FixtureAgent, type FixtureTiming } from '../fixtures/index.js';
import { startOAuthServer, type OAuthServer } from '../fixtures/oauth-provider.js';
import { createNodeFetch, type NodeFetch, type NodeFetchOptions } from '../src/node/fetch.js';

/** Anything a rig can close: a fixture agent, a raw agent, a hostile one. */
export interface Closable {
  close(): Promise<void>;
}

/** How the rig is made. */
export interface AgentRigOptions {
  /** A fresh agent and fetch for each test (`beforeEach`); default: one for all (`beforeAll`). */
  each?: boolean;
  /** The Node fetch's options. */
  fetch?: NodeFetchOptions;
}

/**
 * Starts the agent `start` gives and a Node fetch before the tests, tells `use` both, and closes them after the
 * tests (the fetch, then the agent).
 */
export function useAgentRig<A extends Closable>(
  start: () => Promise<A>,
  use: (agent: A, http: NodeFetch) => void,
  options: AgentRigOptions = {},
): void {
  let agent: A | undefined;
  let http: NodeFetch | undefined;
  const before = options.each === true ? beforeEach : beforeAll;
  const after = options.each === true ? afterEach : afterAll;
  before(async () => {
    agent = await start();
    http = options.fetch === undefined ? createNodeFetch() : createNodeFetch(options.fetch);
    use(agent, http);
  });
  after(async () => {
    await http?.close();
    await agent?.close();
  });
}

/**
 * The OAuth provider and the agents that introspect every token at it, started before the calling file's (or
 * describe's) tests and told to `use`; closed after them (the agents, then the provider).
 */
export function useOAuthAgents(use: (server: OAuthServer, agents: OAuthAgents) => void): void {
  let server: OAuthServer | undefined;
  let agents: OAuthAgents | undefined;
  beforeAll(async () => {
    server = await startOAuthServer();
    agents = await startOAuthAgents(server);
    use(server, agents);
  });
  afterAll(async () => {
    await agents?.close();
    await server?.close();
  });
}

/** The agent (or any server) `start` gives, started before the calling file's (or describe's) tests, told to `use`, closed after them. */
export function useAgent<A extends Closable>(start: () => Promise<A>, use: (agent: A) => void): void {
  let agent: A | undefined;
  beforeAll(async () => {
    agent = await start();
    use(agent);
  });
  afterAll(async () => {
    await agent?.close();
  });
}

/** Both generations' fixture agents (`options` for each), started before the calling file's (or describe's) tests, closed after them. */
export function useBothAgents(use: (v1: FixtureAgent, v03: FixtureAgent) => void, options: Parameters<typeof startV1Agent>[0] = {}): void {
  let agents: [FixtureAgent, FixtureAgent] | undefined;
  beforeAll(async () => {
    agents = await Promise.all([startV1Agent(options), startV03Agent(options)]);
    use(...agents);
  });
  afterAll(async () => {
    await Promise.all((agents ?? []).map((agent) => agent.close()));
  });
}

/**
 * Both generations' agents with `timing`, the fault proxy in front of the v1.0 one and a Node fetch, started before
 * the file's tests (the proxy's plans cleared before each), closed after them.
 */
export function useProxiedAgents(
  timing: Partial<FixtureTiming>,
  use: (rig: { v1: FixtureAgent; v03: FixtureAgent; proxy: FaultProxy; http: NodeFetch }) => void,
): void {
  let rig: { v1: FixtureAgent; v03: FixtureAgent; proxy: FaultProxy; http: NodeFetch } | undefined;
  beforeAll(async () => {
    const [v1, v03] = await Promise.all([startV1Agent({ timing }), startV03Agent({ timing })]);
    rig = { v1, v03, proxy: await startFaultProxy(v1.baseUrl), http: createNodeFetch() };
    use(rig);
  });
  afterAll(async () => {
    await Promise.all([rig?.proxy.close(), rig?.http.close()]);
    await Promise.all([rig?.v1.close(), rig?.v03.close()]);
  });
  beforeEach(() => rig?.proxy.clear());
}
