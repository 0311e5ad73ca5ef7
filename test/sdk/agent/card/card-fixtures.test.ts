/** The card of the fixture agents (the kit: card-kit.ts). */
import { lastValueFrom } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { V1_TENANT, type FixtureAgent } from '../../../../fixtures/index.js';
import { createNodeFetch, type NodeFetch } from '../../../../src/node/fetch.js';
import { createSdkPorts } from '../../../../src/sdk/ports.js';
import { CARD } from './card-kit.js';
import { useBothAgents } from '../../../agent-rig.js';

describe('card resolution against the fixture agents', () => {
  let v1: FixtureAgent;
  let v03: FixtureAgent;
  let http: NodeFetch;
  useBothAgents((a, b) => ([v1, v03] = [a, b]));
  beforeEach(() => {
    http = createNodeFetch({ keepAliveTimeoutMs: 1_000 });
    v1.received.length = 0;
    v03.received.length = 0;
  });
  afterEach(() => http.close());

  it('/rest, /rest/ and the full card URL load the /rest/ agent (not the root agent), with one fetch', async () => {
    const ports = createSdkPorts({ fetch: http.fetch });
    const noSlash = await lastValueFrom(ports(`${v1.baseUrl}/rest`).card());
    expect(noSlash.name).toBe('v1-rest');
    expect(v1.received.map((r) => [r.mount, r.method, r.path])).toEqual([['/rest/', `GET ${CARD}`, `/rest${CARD}`]]);

    const slash = await lastValueFrom(ports(`${v1.baseUrl}/rest/`).card());
    const full = await lastValueFrom(ports(`${v1.baseUrl}/rest${CARD}`).card());
    expect(slash.name).toBe('v1-rest');
    expect(full.name).toBe('v1-rest');
    expect(v1.received).toHaveLength(1); // one card URL, one cache entry
  });

  it('the root agent without a trailing slash', async () => {
    const card = await lastValueFrom(createSdkPorts({ fetch: http.fetch })(v1.baseUrl).card());
    expect(card.name).toBe('v1-main');
    expect(v1.received.map((r) => r.path)).toEqual([CARD]);
  });

  it('summaries of the v1.0 mounts', async () => {
    const ports = createSdkPorts({ fetch: http.fetch });
    const card = (mount: string) => lastValueFrom(ports(v1.url(mount)).card());

    const main = await card('/');
    expect(main).toMatchObject({
      name: 'v1-main',
      protocolVersion: '1.0',
      transport: 'JSONRPC',
      streaming: true,
      url: `${v1.baseUrl}/a2a/jsonrpc`,
    });
    expect(main.tenant).toBeUndefined();
    expect(main.skills?.[0]).toMatchObject({ id: 'fixture' });

    expect(await card('/rest/')).toMatchObject({
      name: 'v1-rest',
      transport: 'HTTP+JSON',
      protocolVersion: '1.0',
      url: `${v1.baseUrl}/rest/a2a/rest`,
    });
    expect(await card('/tenant/')).toMatchObject({ name: 'v1-tenant', tenant: V1_TENANT, transport: 'JSONRPC' });
    expect(await card('/nostream/')).toMatchObject({ name: 'v1-nostream', streaming: false });
  });

  it('the card request asks for JSON and names protocol version 1.0', async () => {
    await lastValueFrom(createSdkPorts({ fetch: http.fetch })(v1.url('/')).card());
    expect(v1.received[0]?.headers).toMatchObject({ accept: 'application/json', 'a2a-version': '1.0' });
  });

  it('summary of the v0.3 agent: protocol 0.3, JSON-RPC', async () => {
    const card = await lastValueFrom(createSdkPorts({ fetch: http.fetch })(v03.url('/')).card());
    expect(card).toMatchObject({ name: 'v03-main', transport: 'JSONRPC', streaming: true, url: `${v03.baseUrl}/a2a/jsonrpc` });
    // The card declares "0.3.0"; the summary carries what the card declares.
    expect(card.protocolVersion.split('.').slice(0, 2).join('.')).toBe('0.3');
    expect(v03.received.map((r) => r.method)).toEqual([`GET ${CARD}`]);
  });
});
