/**
 * A library user's error says as much as the command line's: an unreachable agent's `A2AError`
 * message names the cause (here: connection refused), not a bare `fetch failed`.
 */
import { createServer } from 'node:net';
import { lastValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { createA2A } from '../src/node/create-a2a.js';

/** A port on 127.0.0.1 where nothing listens (it was free a moment ago). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('an unreachable agent', () => {
  it("the card's error and the turn's say: connection refused", async () => {
    const a2a = createA2A({ identitySecret: 'a secret of sixteen bytes or more' });
    const agent = `http://127.0.0.1:${await closedPort()}/`;
    await expect(lastValueFrom(a2a.card(agent))).rejects.toMatchObject({
      kind: 'card',
      message: expect.stringMatching(/^could not fetch the agent card from .*: connection refused: nothing listens on that port$/),
    });
    await expect(lastValueFrom(a2a.turn({ agent, handle: 'h', thread: 't', text: 'hi' }))).rejects.toMatchObject({
      message: expect.stringContaining('connection refused'),
    });
    await a2a.close();
  });
});
