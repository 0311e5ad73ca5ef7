/**
 * Fair use per person, in one replica: each verified user (the token's `sub`) may start at most
 * `messagesPerMinute` messages a minute and hold at most `turns` streams at once (messages and
 * resumes). A request past either is refused with 429, `Retry-After` (whole seconds, rounded up) and
 * `X-Message-Taken: no`, before anything reaches the agent; a refused message uses none of the
 * person's allowance.
 *
 * The rate is a sliding minute: at most N messages taken in any 60 seconds (the times of those taken
 * in the last minute are kept, at most N per person), and a 429's `Retry-After` is when the oldest of
 * them leaves the minute. Time is the process's monotonic clock: a wall clock set back changes
 * nothing. The people are a table in this process only (replicas share nothing): behind a load
 * balancer spreading a person over R replicas, a person gets up to R times these limits.
 *
 * The table is bounded: a person with no stream open and no message in the last minute is forgotten
 * (they would be admitted as a newcomer is), swept a few at each request from the person seen longest
 * ago. At `maxPeople`, a newcomer is admitted only when someone can be forgotten so; else it is
 * refused, 503 (no one's count is dropped to make room, which would give them a fresh minute).
 */
import { quote, Refusal } from './request.mjs';

/** Messages a person may start per minute in one replica, unless told (`--messages-per-minute`). */
export const MESSAGES_PER_MINUTE = 30;
/** Streams (turns and resumes) a person may hold at once in one replica, unless told (`--turns-per-person`). */
export const TURNS_PER_PERSON = 4;
/** People one replica keeps track of at most. */
export const MAX_PEOPLE = 10_000;
/** The pause a person at their turns is told to wait: a turn usually ends within seconds. */
export const TURNS_RETRY_AFTER_S = 1;
/** No limit: what tests that drive many turns as one person run with. */
export const FAIR_USE_OFF = Object.freeze({ messagesPerMinute: 0, turns: 0 });

/** The environment variables a replica reads when its flag is not given. */
export const FAIR_USE_ENV = Object.freeze({
  messagesPerMinute: 'A4H_GATEWAY_MESSAGES_PER_MINUTE',
  turns: 'A4H_GATEWAY_TURNS_PER_PERSON',
});

/** How many entries one sweep looks at, at most: the table is swept a little at each request. */
const SWEEP_STEPS = 64;
/** The window of the messages limit. */
const MINUTE_MS = 60_000;

/**
 * The fair-use settings of a replica's command line: each flag, else its environment variable
 * ({@link FAIR_USE_ENV}), else the default. A whole number; 0 turns that limit off.
 * @param {{ 'messages-per-minute'?: string; 'turns-per-person'?: string }} values
 * @param {Record<string, string | undefined>} env
 * @returns {import('./fair-use.d.mts').FairUseOptions}
 */
export function fairUseOf(values, env) {
  const read = (/** @type {string | undefined} */ flag, /** @type {string} */ name, /** @type {string} */ variable) => {
    const value = flag ?? env[variable];
    if (value === undefined || value === '') return undefined;
    if (!/^\d{1,7}$/.test(value)) throw new Error(`--${name} (or ${variable}) must be a whole number up to 9999999, not ${quote(value)}`);
    return Number(value);
  };
  const messagesPerMinute = read(values['messages-per-minute'], 'messages-per-minute', FAIR_USE_ENV.messagesPerMinute);
  const turns = read(values['turns-per-person'], 'turns-per-person', FAIR_USE_ENV.turns);
  return { ...(messagesPerMinute === undefined ? {} : { messagesPerMinute }), ...(turns === undefined ? {} : { turns }) };
}

/**
 * A replica's fair-use table.
 * @param {import('./fair-use.d.mts').FairUseOptions & { now?: () => number; log?: (line: string) => void }} [options]
 * @returns {import('./fair-use.d.mts').FairUse}
 */
export function fairUse(options = {}) {
  const perMinute = options.messagesPerMinute ?? MESSAGES_PER_MINUTE;
  const turns = options.turns ?? TURNS_PER_PERSON;
  const maxPeople = options.maxPeople ?? MAX_PEOPLE;
  for (const [name, value] of [
    ['messagesPerMinute', perMinute],
    ['turns', turns],
  ]) {
    if (!Number.isSafeInteger(value) || /** @type {number} */ (value) < 0)
      throw new Error(`fair use: ${name} is a whole number (0: no limit)`);
  }
  if (!Number.isSafeInteger(maxPeople) || maxPeople < 1) throw new Error('fair use: maxPeople is a whole number from 1');
  const now = options.now ?? (() => performance.now());
  const log = options.log ?? (() => {});
  /**
   * Each person: `sent`, when each message taken in the last minute was (ascending, at most `perMinute`); `open`,
   * their streams; `refused`, requests refused since their last one taken (the first of a run is logged). Oldest
   * seen first (a person seen is moved last).
   * @type {Map<string, { sent: number[]; open: number; refused: number }>}
   */
  const people = new Map();
  let refused = 0;

  /** Drops from `sent` the messages that left the minute. @param {number[]} sent @param {number} at */
  const age = (sent, at) => {
    let gone = 0;
    while (gone < sent.length && /** @type {number} */ (sent[gone]) <= at - MINUTE_MS) gone += 1;
    if (gone > 0) sent.splice(0, gone);
  };

  /** Forgets people with no stream open and no message in the last minute, from the oldest seen, a few at a time. */
  const sweep = (/** @type {number} */ at) => {
    let steps = 0;
    for (const [user, person] of people) {
      if (++steps > SWEEP_STEPS) return;
      if (person.open > 0) continue;
      age(person.sent, at);
      if (person.sent.length > 0) return;
      people.delete(user);
    }
  };

  /** Someone forgettable (no stream open, no message in the last minute) forgotten to make room; false when none is. */
  const evict = (/** @type {number} */ at) => {
    for (const [user, person] of people) {
      if (person.open > 0) continue;
      age(person.sent, at);
      if (person.sent.length === 0) return people.delete(user);
    }
    return false;
  };

  /** A 429 (a log line for the first of a run). @param {string} user @param {{ refused: number }} person @param {'messages' | 'turns'} limit @param {number} ms */
  const refuse = (user, person, limit, ms) => {
    const seconds = Math.max(1, Math.ceil(ms / 1000));
    refused += 1;
    if (person.refused++ === 0)
      log(`${quote(user)}: over ${limit === 'messages' ? `${perMinute} messages a minute` : `${turns} turns at once`}; refused (429)`);
    const message =
      limit === 'messages'
        ? `you have sent ${perMinute} messages in the last minute here; try again in ${seconds} s`
        : `you have ${turns} replies streaming here already; try again when one ends`;
    return new Refusal(429, message, { 'Retry-After': String(seconds), 'X-Message-Taken': 'no' }, { limit, retryAfter: seconds });
  };

  return {
    admit(user, kind) {
      const at = now();
      sweep(at);
      if (perMinute === 0 && turns === 0) return { release() {} };
      let person = people.get(user);
      if (person === undefined) {
        if (people.size >= maxPeople && !evict(at)) {
          refused += 1;
          throw new Refusal(503, 'this replica keeps track of its most people; try again', { 'Retry-After': '1', 'X-Message-Taken': 'no' });
        }
        person = { sent: [], open: 0, refused: 0 };
      } else {
        people.delete(user); // seen now: moved last
      }
      people.set(user, person);
      if (turns > 0 && person.open >= turns) throw refuse(user, person, 'turns', TURNS_RETRY_AFTER_S * 1000);
      if (kind === 'message' && perMinute > 0) {
        age(person.sent, at);
        const oldest = person.sent[0];
        if (oldest !== undefined && person.sent.length >= perMinute) throw refuse(user, person, 'messages', oldest + MINUTE_MS - at);
        person.sent.push(at);
      }
      person.refused = 0;
      person.open += 1;
      const taken = person;
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          taken.open -= 1;
        },
      };
    },
    stats() {
      return { people: people.size, refused };
    },
  };
}
