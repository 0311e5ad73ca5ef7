/**
 * The Node fetch's `verifyCertificates`: an HTTPS server with a self-signed certificate (the test
 * one, `fixtures/tls/`) is refused by default, and reached with `verifyCertificates: false` (what
 * `a4h --insecure` uses); with HTTP/2 offered too.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeFetch } from '../../../src/node/fetch.js';

const TLS = new URL('../../../fixtures/tls/', import.meta.url);
let server: Server;
let url = '';

beforeAll(async () => {
  const key = readFileSync(new URL('self-signed.key', TLS));
  const cert = readFileSync(new URL('self-signed.crt', TLS));
  server = createServer({ key, cert }, (_req, res) => res.end('hello'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('createNodeFetch verifyCertificates', () => {
  it('by default a self-signed certificate is refused', async () => {
    const http = createNodeFetch();
    try {
      await expect(http.fetch(url)).rejects.toThrow();
    } finally {
      await http.close();
    }
  });

  it.each([{}, { allowH2: true }])('false: the server is reached %j', async (more) => {
    const http = createNodeFetch({ verifyCertificates: false, ...more });
    try {
      expect(await (await http.fetch(url)).text()).toBe('hello');
    } finally {
      await http.close();
    }
  });
});
