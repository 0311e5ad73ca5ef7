import { DEFAULT_POLICY, MAX_TIMER_MS, type TurnPolicyInput } from '../../../node/index.js';
import { UsageError } from '../../core/io.js';
import { durationMs } from '../../core/options.js';
import { outputFormat, type OutputMode } from '../../output/output.js';

/** The delivery and format flags of `send`. */
export interface ModeFlags {
  output?: string | undefined;
  stream?: boolean | undefined;
  json?: boolean | undefined;
  async?: boolean | undefined;
  wait?: boolean | undefined;
}

/** The output mode, its flags checked together: `--json` is a4h's event stream, `-o`/`--stream` the specification's. */
export function modeOf(flags: ModeFlags): OutputMode {
  const mode = { format: outputFormat(flags.output), stream: flags.stream === true };
  if (flags.json && (flags.output !== undefined || mode.stream)) {
    throw new UsageError('--json (a4h’s turn events) goes alone: -o json and --stream are the protocol’s objects');
  }
  if (flags.async && (mode.stream || flags.json || flags.wait))
    throw new UsageError('--async does not wait: not with --stream, --json or --wait');
  return mode;
}

/**
 * The turn's bounds from the flags: `--timeout` (the whole turn, the library's default when not given),
 * `--poll-interval` (the first wait between GetTasks). A task at AUTH_REQUIRED is followed while the agent
 * keeps its stream open, as it may go on by itself once the user signed in (A2A 1.0 §7.6.2): the auth wait
 * is the whole `--timeout`, so the turn's deadline is the one bound of it.
 */
export function policyOf(flags: {
  timeout?: string | undefined;
  'poll-interval'?: string | undefined;
}): TurnPolicyInput & { turnTimeoutMs: number } {
  const turnTimeoutMs = flags.timeout === undefined ? DEFAULT_POLICY.turnTimeoutMs : durationMs('timeout', flags.timeout, MAX_TIMER_MS);
  const policy: TurnPolicyInput & { turnTimeoutMs: number } = { turnTimeoutMs, authWaitMs: turnTimeoutMs };
  if (flags['poll-interval'] !== undefined) {
    const every = durationMs('poll-interval', flags['poll-interval'], MAX_TIMER_MS);
    policy.poll = { initialDelayMs: every, maxDelayMs: Math.max(every, 15_000) };
  }
  return policy;
}
