/** CardUrlOf: what a user typed, as the card URL (the kit: card-kit.ts). */
import { lastValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { A2AError } from '../../../../src/errors.js';
import { cardUrlOf } from '../../../../src/port/card-url.js';
import { createSdkPorts } from '../../../../src/sdk/ports.js';
import { failure } from './card-kit.js';

describe('cardUrlOf', () => {
  it('a base URL with or without the trailing slash reaches the same card', () => {
    expect(cardUrlOf('http://h/rest')).toBe('http://h/rest/.well-known/agent-card.json');
    expect(cardUrlOf('http://h/rest/')).toBe('http://h/rest/.well-known/agent-card.json');
    expect(cardUrlOf('https://h')).toBe('https://h/.well-known/agent-card.json');
    expect(cardUrlOf('https://h/')).toBe('https://h/.well-known/agent-card.json');
  });

  it('a URL ending in .json is the card URL, used as is (its query kept)', () => {
    expect(cardUrlOf('http://h/rest/.well-known/agent-card.json')).toBe('http://h/rest/.well-known/agent-card.json');
    expect(cardUrlOf('https://h/agents/a/card.json?v=2')).toBe('https://h/agents/a/card.json?v=2');
  });

  it('the hash is dropped; a base URL loses its query (the card sits below the path)', () => {
    expect(cardUrlOf('http://h/a#section')).toBe('http://h/a/.well-known/agent-card.json');
    expect(cardUrlOf('http://h/card.json#x')).toBe('http://h/card.json');
    // The query goes with the card (and every call): hosted agents take API keys there.
    expect(cardUrlOf('http://h/a?x=1')).toBe('http://h/a/.well-known/agent-card.json?x=1');
    expect(cardUrlOf('http://h/a/?key=K&v=2#top')).toBe('http://h/a/.well-known/agent-card.json?key=K&v=2');
  });

  it.each([
    ['ftp://h/agent', 'http or https'],
    ['file:///etc/card.json', 'http or https'],
    ['javascript:alert(1)', 'http or https'],
    ['not a url', 'not a URL'],
    ['', 'not a URL'],
    ['//h/agent', 'not a URL'],
  ])('%j → kind input', (input, says) => {
    let thrown: unknown;
    try {
      cardUrlOf(input);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(A2AError);
    expect(thrown).toMatchObject({ kind: 'input', operation: 'card' });
    expect((thrown as A2AError).message).toContain(says);
  });

  it.each([
    ['127.0.0.1:41241', 'http://127.0.0.1:41241/'],
    ['localhost:41241', 'http://localhost:41241/'],
    ['localhost:41241/agents/a', 'http://localhost:41241/agents/a'],
    ['[::1]:8080', 'http://[::1]:8080/'],
    ['agent.example.com', 'https://agent.example.com/'],
    ['agent.example.com:8443/a2a?key=K', 'https://agent.example.com:8443/a2a?key=***'],
  ])('%j without a scheme → "not a URL; did you mean %s?"', (input, meant) => {
    expect(() => cardUrlOf(input)).toThrow(`; did you mean ${meant}?`);
    expect(() => cardUrlOf(input)).toThrow(/^not a URL: /);
  });

  it('no guess for what is no host: a bare word, a sentence', () => {
    expect(() => cardUrlOf('agent')).toThrow(/^not a URL: "agent"$/);
    expect(() => cardUrlOf('not a url')).toThrow(/^not a URL: "not a url"$/);
  });

  it('credentials in the URL → kind input, and the message does not repeat them', () => {
    let thrown: unknown;
    try {
      cardUrlOf('https://user:hunter2@h/agent');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ kind: 'input' });
    expect((thrown as Error).message).not.toContain('hunter2');
  });

  it('a bad URL fails the port before any I/O', async () => {
    let calls = 0;
    const ports = createSdkPorts({
      fetch: () => {
        calls++;
        return Promise.reject(new Error('no I/O expected'));
      },
    });
    expect((await failure(lastValueFrom(ports('ftp://h/agent').card()))).kind).toBe('input');
    expect((await failure(lastValueFrom(ports('https://u:p@h/').send({ text: 'hi' })))).kind).toBe('input');
    expect(calls).toBe(0);
  });
});
