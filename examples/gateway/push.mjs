/**
 * A replica's push receiver: with `--push URL`, the replica follows its turns' tasks by the agent's
 * push notifications instead of holding a stream to the agent. Each replica has its own receiver at
 * `/a2a/push/<its name>` and gives the agent that path under the load balancer's public URL, so a
 * push comes back through haproxy, which routes the path to the replica named in it (`use-server`,
 * haproxy.mjs): the replica whose turn follows that thread and streams it to the person.
 *
 * Every replica checks every push the same way (the credential is derived from the shared identity
 * secret; nothing is stored), so a push haproxy sends elsewhere (its replica is down) is checked,
 * answered 204 and shown to no turn: unclaimed, counted and logged. The person whose replica died
 * reconnects through haproxy; the replica that resumes the task sets its own receiver on it (the
 * same config id, which replaces the dead replica's), then reads the task once: what the agent pushed
 * to the dead replica meanwhile is in that read.
 */
import { createPushReceiver, previousSecretsFromEnv, pushHandler, PREVIOUS_IDENTITY_SECRETS_ENV } from '../../dist/node/index.js';
import { pushPathOf } from './push-path.mjs';
import { quote } from './request.mjs';

export { isPushPath, PUSH_NAME, PUSH_PATH, pushPathOf } from './push-path.mjs';

/**
 * `--push-when`: `offered` (agents whose card offers push, the library's default), `always`, or a
 * number of ms (a turn that has run that long hands its task over to pushes and lets its stream go).
 * @param {string} value
 * @returns {import('../../dist/index.js').PushWhen}
 */
export function pushWhenOf(value) {
  if (value === 'offered' || value === 'always') return value;
  if (/^\d{1,9}$/.test(value)) return { afterMs: Number(value) };
  throw new Error(`--push-when takes offered, always or a number of ms, not ${quote(value)}`);
}

/**
 * Replica `name`'s receivers, their handler and their counters. Two receivers, both checking every push
 * alike: its own, at its own path, whose pushes go to its turns; and one for the other replicas' paths
 * (haproxy sends a push here when the replica it names is down), whose pushes go to no turn. A push
 * addressed to another replica was sent under that replica's push config, so before the replica that
 * resumed the task set its own and read the task (the SDK's server stores an event before it reads
 * the configs to push it): that read holds it already, and shown again it would be shown twice.
 * @param {import('./push.d.mts').ReplicaPushOptions} options
 * @returns {import('./push.d.mts').ReplicaPush}
 */
export function replicaPush({ via, name, secret, when, checkEveryMs, log = () => {} }) {
  if (!secret) throw new Error('--push needs A4H_IDENTITY_SECRET: every replica checks the pushes with it');
  const base = new URL(via);
  if (base.pathname !== '/' || base.search !== '') throw new Error('--push takes the load balancer’s origin (http://host:port/), no path');
  const path = pushPathOf(name); // throws for a name that cannot stand in a path
  const url = new URL(path, base).href;
  const previous = previousSecretsFromEnv(process.env[PREVIOUS_IDENTITY_SECRETS_ENV]);
  let unclaimed = 0;
  const receiverOptions = {
    url,
    secret,
    ...(previous.length === 0 ? {} : { previousSecrets: previous }),
    // Another replica's push (haproxy sent it here: that replica is down), or a turn that ended: answered 204, shown nowhere.
    onUnclaimed: (/** @type {import('../../dist/index.js').UnclaimedPush} */ push) => {
      unclaimed += 1;
      log(`push unclaimed (${unclaimed} so far): no turn here follows task ${quote(push.taskId)}`);
    },
  };
  const own = createPushReceiver(receiverOptions);
  const others = createPushReceiver(receiverOptions);
  const [ownHandler, othersHandler] = [pushHandler(own), pushHandler(others)];
  return {
    url,
    delivery: { source: own, ...(when === undefined ? {} : { when }), ...(checkEveryMs === undefined ? {} : { checkEveryMs }) },
    handle: (req, res) => (new URL(req.url ?? '', 'http://localhost').pathname === path ? ownHandler : othersHandler)(req, res),
    stats: () => {
      const [mine, theirs] = [own.stats(), others.stats()];
      /** @type {Partial<Record<import('../../dist/index.js').PushOutcome, number>>} */
      const outcomes = { ...mine.outcomes };
      for (const [outcome, count] of Object.entries(theirs.outcomes)) {
        const key = /** @type {import('../../dist/index.js').PushOutcome} */ (outcome);
        outcomes[key] = (outcomes[key] ?? 0) + (count ?? 0);
      }
      return { outcomes, following: mine.following, remembered: mine.remembered + theirs.remembered };
    },
  };
}
