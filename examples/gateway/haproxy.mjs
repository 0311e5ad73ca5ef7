/**
 * haproxy in front of the gateway's replicas: its configuration, and the process (Debian's
 * `haproxy`, in the foreground) started and stopped for the example and its tests.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pushPathOf } from './push-path.mjs';

/** Where Debian installs haproxy (`apt-get install haproxy`; `sh scripts/ensure-debian.sh` does it). */
export const HAPROXY = '/usr/sbin/haproxy';

/**
 * The configuration: round robin over the replicas, no stickiness (any replica serves any thread);
 * a health check on `/healthz` every 500 ms that fails in 1 s (a frozen replica answers nothing; a
 * draining one answers 404, which stops new sessions but keeps its open ones, `disable-on-404`), two failures in a row (a busy replica's slow answer is not one) mark a
 * replica down within 3 s, and its sessions are ended then (their clients resume elsewhere); a failed connection retried on another replica (`option redispatch`: a killed
 * replica's port refuses); timeouts sized to the replicas' heartbeat (`heartbeatMs`, default 5 s):
 * a stream silent for three heartbeats is dead, and so is a client that reads nothing for as long.
 *
 * With `push`, an agent's push to `/a2a/push/<name>` goes to replica `<name>` (`use-server`), the one
 * whose turn asked for it. A `use-server` rule naming a server that is down is skipped, so a down
 * replica's pushes are balanced like any request (and a refused connection, before its check fails,
 * is redispatched): another replica checks them and answers 204, with no turn to show them to.
 * @param {{ port: number; replicas: readonly { name: string; port: number }[]; host?: string; heartbeatMs?: number; push?: boolean }} options
 */
export function haproxyConfig({ port, replicas, host = '127.0.0.1', heartbeatMs = 5_000, push = false }) {
  const idle = `${(3 * heartbeatMs) / 1000}s`;
  const servers = replicas.map((r) => `    server ${r.name} ${host}:${r.port}`);
  const line = (/** @type {string} */ setting, /** @type {string} */ comment) => `    ${setting.padEnd(27)}# ${comment}`;
  const pushRoutes = push
    ? [
        "    # an agent's push goes to the replica its path names; that replica down, to any other (which answers 204: unclaimed)",
        ...replicas.map((r) => `    use-server ${r.name} if { path ${pushPathOf(r.name)} }`),
      ]
    : [];
  return [
    'global',
    '    maxconn 4096',
    '',
    'defaults',
    '    mode http',
    line('option http-server-close', 'a new server connection per request: nothing reused on a replica that left'),
    line('option redispatch 1', 'a refused connection is retried on another replica'),
    '    retries 3',
    '    timeout connect 1s',
    line('timeout http-request 10s', 'a request head and body, however slowly sent'),
    '    timeout queue 5s',
    line(`timeout client ${idle}`, 'a client that reads nothing for 3 heartbeats is cut (it resumes)'),
    line(`timeout server ${idle}`, 'a replica that sends nothing for 3 heartbeats is dead'),
    line('timeout check 1s', 'a frozen replica fails its check within a second'),
    '    # checked every 500 ms (250 ms once one fails); down after 2 failures, and then its sessions end',
    '    default-server check inter 500ms fastinter 250ms fall 2 rise 1 on-marked-down shutdown-sessions',
    '',
    'frontend chat',
    `    bind ${host}:${port}`,
    '    default_backend replicas',
    '',
    'backend replicas',
    '    balance roundrobin',
    '    option httpchk GET /healthz',
    line('http-check disable-on-404', 'a draining replica (404) gets no new sessions; its open ones go on until it ends them'),
    ...pushRoutes,
    ...servers,
    '',
  ].join('\n');
}

/**
 * Starts haproxy with {@link haproxyConfig}; resolves once it accepts on `port` and a replica
 * answers through it.
 * @param {{ port: number; replicas: readonly { name: string; port: number }[]; heartbeatMs?: number; push?: boolean; log?: (line: string) => void }} options
 * @returns {Promise<{ url: string; config: string; stop(): Promise<void> }>}
 */
export async function startHaproxy(options) {
  if (!existsSync(HAPROXY)) throw new Error(`${HAPROXY} is missing: install Debian's haproxy (sh scripts/ensure-debian.sh)`);
  const dir = await mkdtemp(join(tmpdir(), 'a4h-haproxy-'));
  const config = haproxyConfig(options);
  const file = join(dir, 'haproxy.cfg');
  await writeFile(file, config);
  const child = spawn(HAPROXY, ['-f', file, '-db'], { stdio: ['ignore', 'pipe', 'pipe'] });
  const output = [];
  const keep = (chunk) => {
    output.push(String(chunk));
    for (const line of String(chunk).split('\n')) if (line.trim() !== '') options.log?.(line);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const url = `http://127.0.0.1:${options.port}/`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
    await rm(dir, { recursive: true, force: true });
  };
  for (const deadline = Date.now() + 10_000; ;) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`haproxy exited ${child.exitCode}: ${output.join('').trim()}`);
    }
    const healthy = await fetch(new URL('healthz', url)).then(
      (response) => response.ok,
      () => false,
    );
    if (healthy) return { url, config, stop };
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`haproxy did not serve ${url} within 10 s: ${output.join('').trim()}`);
    }
    await sleep(100);
  }
}
