// One turn followed by the agent's pushes: a receiver on this machine, the message asks the agent to
// post its reply there, and nothing is held open to the agent while it works.
//
//   npm run demo-agent                                 # an agent on http://127.0.0.1:41241/ that pushes
//   node examples/node/push.mjs [AGENT_URL] [MESSAGE]
//
// The receiver checks each push with a credential derived from the identity secret (A4H_IDENTITY_SECRET,
// or a random one for this run): the same secret the client gives the agent, nothing stored.
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { createA2A, createPushReceiver, pushHandler } from 'a4h-a2a/node';
import { exampleArgs } from '../args.mjs';

const { positionals } = exampleArgs('Usage: node examples/node/push.mjs [AGENT_URL] [MESSAGE]', { allowPositionals: true, options: {} });
const [agent = 'http://127.0.0.1:41241/', text = 'Hello!'] = positionals;
const secret = process.env.A4H_IDENTITY_SECRET || randomBytes(32).toString('hex');

const server = createServer();
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const receiver = createPushReceiver({ secret, url: `http://127.0.0.1:${server.address().port}/push` });
server.on('request', pushHandler(receiver));

// 'offered': agents whose card offers push notifications; the reply's end is read once more from the agent.
const a2a = createA2A({ identitySecret: secret, push: { source: receiver, when: 'offered' } });
const done = async () => {
  await a2a.close();
  server.closeAllConnections();
  server.close();
};

a2a.turn({ agent, handle: 'demo', thread: 'push-example', text }).subscribe({
  next(event) {
    if (event.type === 'push' && event.step === 'asked') console.error('[asked the agent to post its reply]');
    if (event.type === 'text') process.stdout.write(event.replace ? `\n${event.text}` : event.text);
    if (event.type === 'end') console.log(`\n[${event.outcome}; ${receiver.stats().outcomes.taken ?? 0} pushes taken]`);
  },
  error(error) {
    console.error(`error: ${error.message}`);
    process.exitCode = 1;
    void done();
  },
  complete: () => void done(),
});
