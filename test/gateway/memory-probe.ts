/**
 * What a Node process started with `--inspect=127.0.0.1:PORT` holds: through its inspector (the
 * DevTools protocol, over undici's WebSocket), a full garbage collection, then its
 * `process.memoryUsage()`. RSS alone says what V8 has not given back yet; this says what is live.
 */
import { WebSocket } from 'undici';

/** An answer of the inspector: its call's id and, for `Runtime.evaluate`, the value. */
interface Answer {
  id?: number;
  result?: { result?: { value?: string } };
}

/** The process's memory after a full GC, in MB: the JS heap in use, and memory outside it (buffers). */
export async function liveMemoryMb(inspectPort: number): Promise<{ heapUsed: number; external: number; rss: number }> {
  const targets = (await (await fetch(`http://127.0.0.1:${inspectPort}/json/list`)).json()) as Array<{ webSocketDebuggerUrl: string }>;
  const socket = new WebSocket(targets[0]!.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    socket.addEventListener('open', resolve, { once: true });
    socket.addEventListener('error', reject, { once: true });
  });
  let id = 0;
  const call = (method: string, params: Record<string, unknown> = {}) =>
    new Promise<Answer>((resolve) => {
      const mine = ++id;
      const onMessage = (event: { data: unknown }) => {
        const answer = JSON.parse(String(event.data)) as Answer;
        if (answer.id !== mine) return;
        socket.removeEventListener('message', onMessage);
        resolve(answer);
      };
      socket.addEventListener('message', onMessage);
      socket.send(JSON.stringify({ id: mine, method, params }));
    });
  try {
    await call('HeapProfiler.collectGarbage');
    const answer = await call('Runtime.evaluate', { expression: 'JSON.stringify(process.memoryUsage())', returnByValue: true });
    const usage = JSON.parse(answer.result!.result!.value!) as { heapUsed: number; external: number; rss: number };
    const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);
    return { heapUsed: mb(usage.heapUsed), external: mb(usage.external), rss: mb(usage.rss) };
  } finally {
    socket.close();
  }
}
