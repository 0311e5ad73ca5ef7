/**
 * What a large blocking answer costs the client: `npm run bench:unary`. For each size and protocol
 * generation, an agent in a process of its own answers one blocking send with that much text; the
 * turn runs in a fresh process (this one) with the bounds raised so the whole answer is read, and
 * the growth of this process's RSS (sampled every millisecond) is set against the answer's size.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { lastValueFrom } from 'rxjs';
import { createSdkPorts, runTurn } from 'a4h-a2a';
import { createNodeFetch } from 'a4h-a2a/node';

const [mebibytes, generation] = [Number(process.argv[2] ?? 0), process.argv[3] ?? ''];

if (mebibytes === 0) {
  // The runner: one fresh process per cell, so no cell pays for another's garbage.
  console.log('| answer | generation | RSS growth | × answer |\n|--:|---|--:|--:|');
  for (const size of [16, 32, 63]) {
    for (const wire of ['v1', 'v03']) {
      const child = spawn(process.execPath, [fileURLToPath(import.meta.url), String(size), wire], {
        stdio: ['ignore', 'inherit', 'inherit'],
      });
      await new Promise((resolve) => child.on('close', resolve));
    }
  }
} else {
  const agentScript = fileURLToPath(new URL('./unary-agent.js', import.meta.url));
  const agent = spawn(process.execPath, [agentScript, String(mebibytes), generation], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<string>((resolve) => agent.stdout.once('data', (data: Buffer) => resolve(String(data).trim())));
  const http = createNodeFetch();
  try {
    const ports = createSdkPorts({ fetch: http.fetch });
    const agentUrl = `http://127.0.0.1:${port}/`;
    await lastValueFrom(ports(agentUrl).card());
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 1);
    const policy = { maxReplyChars: 1e9 };
    await lastValueFrom(runTurn(ports(agentUrl), { text: 'hi' }, { policy }));
    clearInterval(sampler);
    const growth = (peak - before) / 2 ** 20;
    console.log(
      `| ${mebibytes} MiB | ${generation === 'v03' ? 'v0.3' : 'v1.0'} | ${growth.toFixed(0)} MiB | ${(growth / mebibytes).toFixed(2)} |`,
    );
  } finally {
    await http.close();
    agent.kill();
  }
}
