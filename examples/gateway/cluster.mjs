/**
 * The gateway as it runs in production, on one machine: N replica processes (gateway.mjs) sharing
 * the identity secret and the identity provider's keys and nothing else, behind haproxy. Replicas
 * can be killed, restarted (SIGTERM: hand over, then start again on the same port), frozen
 * (SIGSTOP) and thawed, and haproxy stopped and started again; `npm run example:gateway` and the
 * tests use it.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { startHaproxy } from './haproxy.mjs';

const GATEWAY = fileURLToPath(new URL('gateway.mjs', import.meta.url));

/** A free TCP port on 127.0.0.1 (the OS picks it; haproxy's configuration names ports up front). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** The command-line flags of a replica's settings. @param {import('./cluster.d.mts').ReplicaSettings} settings */
function flagsOf(settings) {
  const { auth, heartbeatMs, maxBufferedBytes, maxStreams, lookup, push, fairUse, a2uiCatalogs } = settings;
  const when = push?.when;
  return [
    ...(auth ? ['--jwks', auth.jwks, '--issuer', auth.issuer, '--audience', auth.audience] : []),
    ...(heartbeatMs ? ['--heartbeat-ms', String(heartbeatMs)] : []),
    ...(maxBufferedBytes ? ['--max-buffered-bytes', String(maxBufferedBytes)] : []),
    ...(maxStreams ? ['--max-streams', String(maxStreams)] : []),
    ...(lookup ? ['--lookup', lookup] : []),
    ...(push ? ['--push', push.via] : []),
    ...(when === undefined ? [] : ['--push-when', typeof when === 'object' ? String(when.afterMs) : when]),
    ...(push?.checkEveryMs ? ['--push-check-ms', String(push.checkEveryMs)] : []),
    ...(fairUse?.messagesPerMinute === undefined ? [] : ['--messages-per-minute', String(fairUse.messagesPerMinute)]),
    ...(fairUse?.turns === undefined ? [] : ['--turns-per-person', String(fairUse.turns)]),
    ...(a2uiCatalogs === undefined ? [] : ['--a2ui-catalogs', a2uiCatalogs.length === 0 ? 'none' : a2uiCatalogs.join(',')]),
  ];
}

/**
 * Starts one replica process on `port`; resolves once it listens.
 * @param {{ agent: string; port: number; name: string; secret: string; log?: (line: string) => void } & import('./cluster.d.mts').ReplicaSettings} options
 * @returns {Promise<import('./cluster.d.mts').Replica>}
 */
export function startReplica({ agent, port, name, secret, log, ...settings }) {
  const args = [GATEWAY, '--agent', agent, '--port', String(port), '--name', name, ...flagsOf(settings)];
  const child = spawn(process.execPath, args, {
    env: { ...process.env, A4H_IDENTITY_SECRET: secret },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  child.stderr.setEncoding('utf8').on('data', (chunk) => {
    for (const line of chunk.split('\n')) if (line.trim() !== '') log?.(line);
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      out += chunk;
      if (!out.includes(' on http')) return;
      resolve({
        name,
        port,
        pid: child.pid,
        exited,
        kill: async () => {
          child.kill('SIGKILL');
          return exited;
        },
        stop: async () => {
          child.kill('SIGCONT'); // a frozen replica must run to hand over
          child.kill('SIGTERM');
          return exited;
        },
        freeze: () => child.kill('SIGSTOP'),
        thaw: () => child.kill('SIGCONT'),
      });
    });
    exited.then(({ code, signal }) => reject(new Error(`replica ${name} exited (${signal ?? code}) before it listened`)));
  });
}

/**
 * Resolves once haproxy sends requests to replica `name` again (its health check passed): a rolling
 * deploy moves to the next replica only then. Round robin reaches every live replica in turn.
 */
async function routedTo(url, name, timeoutMs = 10_000) {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await sleep(100)) {
    // haproxy answers an HTML page (503) while no replica is up: that is not yet, like a refused connection.
    const replica = await fetch(new URL('healthz', url))
      .then((response) => response.json())
      .then(
        (body) => body?.replica,
        () => undefined,
      );
    if (replica === name) return;
  }
  throw new Error(`haproxy did not route to replica ${name} within ${timeoutMs} ms`);
}

/**
 * Starts `replicas` replicas (named A, B, C, …) and haproxy in front of them.
 * @param {import('./cluster.d.mts').ClusterOptions} options
 * @returns {Promise<import('./cluster.d.mts').Cluster>}
 */
export async function startCluster(options) {
  const count = options.replicas ?? 3;
  const names = Array.from({ length: count }, (_, i) => String.fromCharCode(65 + i));
  const ports = await Promise.all(names.map(() => freePort()));
  const { agent, secret, log, auth, heartbeatMs, maxBufferedBytes, maxStreams, lookup, fairUse, a2uiCatalogs } = options;
  // haproxy's port, named up front: with push, each replica gives the agent its receiver under it.
  const balancerPort = options.port || (await freePort()); // 0: a free one
  const push = options.push ? { via: `http://127.0.0.1:${balancerPort}/`, ...(options.push === true ? {} : options.push) } : undefined;
  const settings = {
    ...(auth ? { auth } : {}),
    ...(heartbeatMs ? { heartbeatMs } : {}),
    ...(maxBufferedBytes ? { maxBufferedBytes } : {}),
    ...(maxStreams ? { maxStreams } : {}),
    ...(push ? { push } : {}),
    ...(fairUse ? { fairUse } : {}),
    ...(a2uiCatalogs ? { a2uiCatalogs } : {}),
  };
  const start = (name, port) => startReplica({ agent, port, name, secret, log, ...settings, ...(lookup ? { lookup } : {}) });
  /** @type {Map<string, import('./cluster.d.mts').Replica>} */
  const running = new Map();
  try {
    for (const replica of await Promise.all(names.map((name, i) => start(name, ports[i])))) running.set(replica.name, replica);
    const balancer = {
      port: balancerPort,
      replicas: names.map((name, i) => ({ name, port: ports[i] })),
      ...(heartbeatMs ? { heartbeatMs } : {}),
      ...(push ? { push: true } : {}),
      ...(log ? { log: (line) => log(`haproxy: ${line}`) } : {}),
    };
    /** @type {Awaited<ReturnType<typeof startHaproxy>> | undefined} */
    let haproxy = await startHaproxy(balancer);
    const url = haproxy.url;
    const config = haproxy.config;
    const replica = (name) => {
      const found = running.get(name);
      if (found === undefined) throw new Error(`replica ${name} is not running`);
      return found;
    };
    return {
      url,
      config,
      names,
      replica,
      stopBalancer: async () => {
        await haproxy?.stop();
        haproxy = undefined;
      },
      startBalancer: async () => {
        haproxy ??= await startHaproxy(balancer);
      },
      kill: async (name) => {
        await replica(name).kill();
        running.delete(name);
      },
      restart: async (name) => {
        const old = running.get(name);
        if (old !== undefined) {
          await old.stop();
          running.delete(name);
        }
        running.set(name, await start(name, ports[names.indexOf(name)]));
        await routedTo(url, name);
      },
      stop: async () => {
        await haproxy?.stop();
        await Promise.all([...running.values()].map((r) => r.stop()));
        running.clear();
      },
    };
  } catch (error) {
    await Promise.all([...running.values()].map((r) => r.kill()));
    throw error;
  }
}
