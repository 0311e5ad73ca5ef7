// One turn whose calls to the agent are logged on stderr, by a decorated port: what an a2a-js
// interceptor does, done with ForwardingPort.
//
//   npm run demo-agent                                 # an agent on http://127.0.0.1:41241/
//   node examples/node/logged-port.mjs [AGENT_URL] [MESSAGE]
//
// The thread's contextId is derived from A4H_IDENTITY_SECRET (keep it: the conversation continues).
import { defer, last, lastValueFrom, tap } from 'rxjs';
import { createA2A, createNodeFetch, createSdkPorts, ForwardingPort } from 'a4h-a2a/node';

const args = process.argv.slice(2);
const flag = args.find((arg) => arg.startsWith('-'));
if (flag !== undefined) {
  // --help prints the usage; a flag it does not take prints it on stderr (exit 2).
  const out = flag === '--help' || flag === '-h' ? process.stdout : process.stderr;
  out.write(`${out === process.stderr ? `unknown flag ${flag}\n` : ''}Usage: node examples/node/logged-port.mjs [AGENT_URL] [MESSAGE]\n`);
  process.exit(out === process.stdout ? 0 : 2);
}
const [agent = 'http://127.0.0.1:41241/', text = 'Hello!'] = args;

// A port that logs the calls it decorates; every other call is forwarded as it is.
class LoggedPort extends ForwardingPort {
  card() {
    return logged('card', super.card());
  }
  send(message) {
    return logged(`send ${message.messageId}`, super.send(message));
  }
  stream(message) {
    return logged(`stream ${message.messageId}`, super.stream(message));
  }
  cancel(taskId) {
    return logged(`cancel ${taskId}`, super.cancel(taskId));
  }
}

// A call is a cold Observable: it starts when subscribed (and may be subscribed again: a call answered 429 or
// 503 is made again). The turn may end it early: it stops reading a stream at its last event.
function logged(call, answer) {
  return defer(() => {
    const started = performance.now();
    const took = () => `${Math.round(performance.now() - started)} ms`;
    console.error(`-> ${call}`);
    return answer.pipe(
      tap({
        complete: () => console.error(`<- ${call}: done in ${took()}`),
        error: (error) => console.error(`<- ${call}: ${error.kind} error after ${took()}`),
        unsubscribe: () => console.error(`<- ${call}: closed after ${took()}`),
      }),
    );
  });
}

// The SDK's ports, as createA2A makes them, each one decorated; their fetch and channels are yours to close.
const http = createNodeFetch();
const sdkPorts = createSdkPorts({ fetch: http.fetch });
const a2a = createA2A({ ports: (url, turn) => new LoggedPort(sdkPorts(url, turn)) });
// End of the decorator; the rest is one turn, its reply printed at its end.

try {
  const end = await lastValueFrom(a2a.turn({ agent, handle: 'demo', thread: 'node-example-logged', text }).pipe(last()));
  console.log(`${end.text}\n[${end.outcome}]`);
} catch (error) {
  console.error(`error: ${error.message}`);
  process.exitCode = 1;
} finally {
  // The client first (its turns' cancels go out), then the ports and the fetch it was given.
  await a2a.close();
  await sdkPorts.close();
  await http.close();
}
