/**
 * Cards as agents publish them (issue 48): relative interface addresses resolved against the URL the
 * card came from, and a bad address named in the error (never one carrying credentials).
 */
import { describe, expect, it } from 'vitest';
import { checkCard } from '../../../../src/sdk/agent/card/schema.js';

const CARD_URL = 'http://127.0.0.1:4111/.well-known/zoo-mastra2/agent.json?key=K';
const v03 = (fields: Record<string, unknown>): Record<string, unknown> => ({ name: 'a', ...fields });

describe('checkCard: relative addresses', () => {
  it("a v0.3 card's relative url (@mastra/server 2.0.4's `/a2a/<id>`) and its additional interfaces' are resolved against the card's URL", () => {
    const json = v03({
      url: '/a2a/zoo-mastra2',
      additionalInterfaces: [
        { url: './rest', transport: 'HTTP+JSON' },
        { url: 'h:50051', transport: 'GRPC' },
      ],
    });
    const checked = checkCard(json, CARD_URL);
    expect(checked.card).toMatchObject({
      url: 'http://127.0.0.1:4111/a2a/zoo-mastra2',
      additionalInterfaces: [
        { url: 'http://127.0.0.1:4111/.well-known/zoo-mastra2/rest' },
        // Not an HTTP interface: its address is its binding's to read.
        { url: 'h:50051' },
      ],
    });
    // The JSON as served is left as it was (its signatures are checked on it).
    expect(json.url).toBe('/a2a/zoo-mastra2');
  });

  it("a v1.0 card's relative interface URLs, protocol-relative ones too", () => {
    const json = {
      name: 'a',
      supportedInterfaces: [
        { url: '/a2a/jsonrpc', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
        { url: '//other.example/rest', protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
      ],
    };
    const checked = checkCard(json, 'https://agent.example/team/.well-known/agent-card.json');
    expect(checked.card).toMatchObject({
      supportedInterfaces: [{ url: 'https://agent.example/a2a/jsonrpc' }, { url: 'https://other.example/rest' }],
    });
  });

  it('an absolute address is kept as written; a bare word is no URL, as before', () => {
    const checked = checkCard(v03({ url: 'https://agent.example/a2a' }), CARD_URL);
    expect(checked.card).toMatchObject({ url: 'https://agent.example/a2a' });
    expect(() => checkCard(v03({ url: 'nowhere' }), CARD_URL)).toThrow('it must be an http(s) URL, not "nowhere"');
  });
});

describe('checkCard: a bad address is named', () => {
  it('the error names the value (its query hidden), not only the card', () => {
    expect(() => checkCard(v03({ url: 'ftp://files.example/a2a?token=T' }), CARD_URL)).toThrow(
      `the agent card's field url is not usable: it must be an http(s) URL, not "ftp://files.example/a2a?token=***"`,
    );
  });

  it('an address with credentials is refused without its value', () => {
    let message = '';
    try {
      checkCard(v03({ url: 'https://user:secret@agent.example/a2a' }), CARD_URL);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain("the agent card's field url is not usable: it must not carry credentials");
    expect(message).not.toContain('secret');
  });
});
