/**
 * Which interface of a card is called: the protocol version first, then our preference among
 * bindings (JSON-RPC, HTTP+JSON, gRPC), then the card's order; the `bindings` option forcing one per
 * agent; gRPC only with gRPC support; and the three forms of a gRPC address.
 */
import type { AgentInterface } from '@a2a-js/sdk';
import { describe, expect, it } from 'vitest';
import { Bindings } from '../../../src/sdk/wire/bindings/forced.js';
import { OpenBindings } from '../../../src/sdk/wire/bindings/open.js';
import { chooseInterface, type InterfaceChoice } from '../../../src/sdk/agent/choose-interface.js';
import { parseGrpcAddress } from '../../../src/sdk/wire/bindings/grpc/address.js';

const CARD = 'https://agent.example/.well-known/agent-card.json';
const iface = (protocolBinding: string, protocolVersion: string, url = `https://agent.example/${protocolBinding}/${protocolVersion}`) =>
  ({ url, protocolBinding, protocolVersion, tenant: '' }) as AgentInterface;
const NODE: InterfaceChoice = { available: () => true };
const browser = new OpenBindings({});
const BROWSER: InterfaceChoice = { available: (binding) => browser.available(binding) };
const pick = (interfaces: AgentInterface[], choice: InterfaceChoice = NODE) => {
  const chosen = chooseInterface(interfaces, CARD, choice);
  return `${chosen.protocolBinding} ${chosen.protocolVersion}`;
};

describe('the interface chosen', () => {
  it('the newest protocol version first, whatever its binding', () => {
    expect(pick([iface('JSONRPC', '0.3'), iface('GRPC', '1.0', 'agent.example:443')])).toBe('GRPC 1.0');
    expect(pick([iface('JSONRPC', '0.3'), iface('HTTP+JSON', '1.0')])).toBe('HTTP+JSON 1.0');
  });

  it('then JSON-RPC, HTTP+JSON, gRPC, whatever the card says first', () => {
    const all = [iface('GRPC', '1.0', 'agent.example:443'), iface('HTTP+JSON', '1.0'), iface('JSONRPC', '1.0')];
    expect(pick(all)).toBe('JSONRPC 1.0');
    expect(pick(all.slice(0, 2))).toBe('HTTP+JSON 1.0');
    expect(pick(all.slice(0, 1))).toBe('GRPC 1.0');
  });

  it("then the card's order", () => {
    const first = iface('JSONRPC', '1.0', 'https://one.example/');
    const second = iface('JSONRPC', '1.0', 'https://two.example/');
    expect(chooseInterface([first, second], CARD, NODE).url).toBe('https://one.example/');
    expect(chooseInterface([second, first], CARD, NODE).url).toBe('https://two.example/');
  });

  it('without gRPC support (the core entry, as in a browser) gRPC is never chosen; a gRPC-only card says gRPC is Node-only', () => {
    expect(pick([iface('GRPC', '1.0', 'agent.example:443'), iface('JSONRPC', '0.3')], BROWSER)).toBe('JSONRPC 0.3');
    expect(() => pick([iface('GRPC', '1.0', 'agent.example:443')], BROWSER)).toThrow(
      expect.objectContaining({ kind: 'card', message: expect.stringContaining('gRPC is Node-only') }),
    );
  });

  it('a gRPC address the client cannot read is skipped, and named when nothing else is left', () => {
    expect(pick([iface('GRPC', '1.0', 'not an address'), iface('JSONRPC', '0.3')])).toBe('JSONRPC 0.3');
    expect(() => pick([iface('GRPC', '1.0', 'not an address')])).toThrow(/"not an address" is not host:port/);
  });

  it('a forced binding narrows the choice to its interfaces (the newest of them), and a card without one is a card error', () => {
    const all = [iface('JSONRPC', '1.0'), iface('HTTP+JSON', '0.3'), iface('HTTP+JSON', '1.0'), iface('GRPC', '1.0', 'agent.example:443')];
    expect(pick(all, { ...NODE, forced: 'HTTP+JSON' })).toBe('HTTP+JSON 1.0');
    expect(pick(all, { ...NODE, forced: 'GRPC' })).toBe('GRPC 1.0');
    expect(() => pick(all.slice(0, 3), { ...NODE, forced: 'GRPC' })).toThrow(
      expect.objectContaining({
        kind: 'card',
        message: expect.stringContaining('offers no GRPC interface, which the bindings option asks for'),
      }),
    );
    expect(() => pick(all, { ...BROWSER, forced: 'GRPC' })).toThrow(/gRPC is Node-only/);
  });
});

describe('the bindings option', () => {
  it('the longest key that is a prefix of the card URL, on whole path segments, any case of the binding', () => {
    const bindings = new Bindings({
      'https://agent.example': 'JSONRPC',
      'https://agent.example/grpc/': 'GRPC',
      'https://agent.example/grpc/rest': 'http+json' as 'HTTP+JSON',
    });
    expect(bindings.forAgent('https://agent.example/a/.well-known/agent-card.json')).toBe('JSONRPC');
    expect(bindings.forAgent('https://agent.example/grpc/.well-known/agent-card.json')).toBe('GRPC');
    expect(bindings.forAgent('https://agent.example/grpc/rest/.well-known/agent-card.json')).toBe('HTTP+JSON');
    expect(bindings.forAgent('https://agent.example/grpcx/.well-known/agent-card.json')).toBe('JSONRPC');
    expect(bindings.forAgent('https://other.example/.well-known/agent-card.json')).toBeUndefined();
  });

  it('a bad entry is a config error naming it', () => {
    expect(() => new Bindings({ 'https://agent.example': 'SOAP' as 'GRPC' })).toThrow(
      expect.objectContaining({ kind: 'config', message: expect.stringContaining('"https://agent.example"') }),
    );
    expect(() => new Bindings({ 'agent.example': 'GRPC' })).toThrow(expect.objectContaining({ kind: 'config' }));
    expect(() => new Bindings({ 'https://agent.example/?key=1': 'GRPC' })).toThrow(expect.objectContaining({ kind: 'config' }));
  });
});

describe('a gRPC address', () => {
  it.each([
    ['127.0.0.1:50051', '127.0.0.1:50051', false],
    ['localhost:50051', 'localhost:50051', false],
    ['[::1]:50051', '[::1]:50051', false],
    ['agent.example:443', 'agent.example:443', true],
    ['grpc://agent.example:50051', 'agent.example:50051', false],
    ['grpcs://agent.example:50051', 'agent.example:50051', true],
    ['https://agent.example', 'agent.example:443', true],
    ['https://agent.example:8443/', 'agent.example:8443', true],
    ['http://127.0.0.1:8080', '127.0.0.1:8080', false],
    ['AGENT.example:443', 'agent.example:443', true],
  ])('%s → %s, TLS %s', (address, target, tls) => {
    expect(parseGrpcAddress(address)).toMatchObject({ target, tls, url: `${tls ? 'grpcs' : 'grpc'}://${target}` });
  });

  it('its credentials origin is the https origin over TLS and the http one in plaintext', () => {
    expect(parseGrpcAddress('agent.example:443')?.origin).toBe('https://agent.example:443');
    expect(parseGrpcAddress('127.0.0.1:50051')?.origin).toBe('http://127.0.0.1:50051');
  });

  it.each([
    'agent.example',
    'grpc://agent.example',
    'https://agent.example/a2a',
    'ftp://agent.example:21',
    'https://u:p@agent.example',
    ':50051',
    '127.0.0.1:0',
    'host:99999',
  ])('%s is no gRPC address', (address) => {
    expect(parseGrpcAddress(address)).toBeUndefined();
  });
});

describe('the interface chosen in the card’s order (interfaceOrder: the A2A CLI specification’s choice)', () => {
  const all = [iface('GRPC', '1.0', 'agent.example:443'), iface('HTTP+JSON', '1.0'), iface('JSONRPC', '1.0'), iface('JSONRPC', '0.3')];
  const inOrder = (order: InterfaceChoice['order']): InterfaceChoice => ({ ...NODE, order });

  it("the card's first usable interface, not a4h's binding preference", () => {
    expect(pick(all, inOrder({}))).toBe('GRPC 1.0');
    expect(pick(all, { ...inOrder({}), available: (binding) => (binding.name === 'GRPC' ? 'no gRPC here' : true) })).toBe('HTTP+JSON 1.0');
  });

  it('the first of the preferred bindings the card offers; none of them: the card’s order', () => {
    expect(pick(all, inOrder({ prefer: ['JSONRPC', 'HTTP+JSON'] }))).toBe('JSONRPC 1.0');
    expect(pick(all.slice(0, 2), inOrder({ prefer: ['JSONRPC'] }))).toBe('GRPC 1.0');
  });

  it('none older than minVersion: a card with only older ones is a VersionNotSupportedError (-32009), not a downgrade', () => {
    expect(pick([iface('JSONRPC', '0.3'), iface('HTTP+JSON', '1.0')], inOrder({ minVersion: '1.0' }))).toBe('HTTP+JSON 1.0');
    expect(() => pick([iface('JSONRPC', '0.3')], inOrder({ minVersion: '1.0' }))).toThrow(
      expect.objectContaining({ kind: 'unsupported', code: -32009, message: expect.stringContaining('0.3') }),
    );
    expect(pick([iface('JSONRPC', '0.3')], inOrder({ minVersion: '0.3' }))).toBe('JSONRPC 0.3');
  });

  it('the versions before 1.0 are one generation: minVersion 0.3 admits a card that says 0.1.0 or 0.2.0; 1.0 refuses them', () => {
    for (const version of ['0.1.0', '0.2.0', '0.2.5']) {
      expect(pick([iface('JSONRPC', version)], inOrder({ minVersion: '0.3' })), version).toBe(`JSONRPC ${version}`);
      expect(pick([iface('JSONRPC', version)], inOrder({ minVersion: '0.2' })), version).toBe(`JSONRPC ${version}`);
      expect(() => pick([iface('JSONRPC', version)], inOrder({ minVersion: '1.0' })), version).toThrow(
        expect.objectContaining({ code: -32009, message: expect.stringContaining(`A2A ${version}, older than 1.0`) }),
      );
    }
    expect(() => pick([iface('JSONRPC', '1.0')], inOrder({ minVersion: '1.1' }))).toThrow(expect.objectContaining({ code: -32009 }));
  });
});
