import { type A2AError, isA2AError, networkCause } from '../../node/index.js';
import { describeError } from '../core/errors.js';
import { UsageError } from '../core/io.js';
import { A2A_ERROR_NAME_SET, A2A_ERROR_NAMES, CLI_ERRORS, EXIT, type CliErrorCode } from './codes.js';

/** The A2A CLI specification's error envelope (its Appendix B): the one shape it defines of its own. */
export interface ErrorEnvelope {
  error: {
    /** A2A's error name for a protocol failure (`TaskNotFoundError`), else an `A2ACLI_ERR_*` (or `A4H_ERR_*`) code. */
    code: string;
    /** What happened, for a person; never a credential. */
    message: string;
    /** The next step, ideally a command to copy; null when there is nothing useful to say. */
    hint: string | null;
    /** The transport's code under the failure (JSON-RPC code, gRPC status, HTTP status), else null. */
    a2aCode: string | number | null;
  };
}

/** What an error is to the command line: its envelope code, its exit status, the transport's code. */
export interface ErrorClass {
  code: string;
  exit: number;
  a2aCode: number | null;
}

/**
 * How `error` is reported: a failure the agent named carries A2A's error name (found the same way on
 * every binding: the SDK's typed error in the cause chain, or the JSON-RPC code), exit 1; a condition
 * of the CLI's own carries its `A2ACLI_ERR_*` code and that code's exit status (2 usage, 3 unreachable,
 * 4 authentication, 5 timeout; an agent or card answering HTTP 503 is unreachable for now). An error with
 * no better code is `A2ACLI_ERR_INTERNAL`.
 */
export function classifyError(error: unknown): ErrorClass {
  if (error instanceof UsageError) return local('A2ACLI_ERR_USAGE', null);
  if (!isA2AError(error)) return local('A2ACLI_ERR_INTERNAL', null);
  const a2aCode = error.code ?? error.grpcCode ?? error.status ?? null;
  const local$ = localCode(error);
  if (local$ !== undefined) return local(local$, a2aCode);
  const name = a2aName(error);
  if (name !== undefined) return { code: name, exit: EXIT.failure, a2aCode };
  if (error.kind === 'task-not-found') return { code: 'TaskNotFoundError', exit: EXIT.failure, a2aCode };
  return local('A2ACLI_ERR_INTERNAL', a2aCode);
}

/** The CLI-local code of an error the protocol does not name, or undefined when it may (or does). */
function localCode(error: A2AError): CliErrorCode | undefined {
  switch (error.kind) {
    case 'input':
      // An extension the agent requires is the agent's ExtensionSupportRequiredError when it said so.
      return error.code === undefined ? 'A2ACLI_ERR_USAGE' : undefined;
    case 'config':
      return 'A2ACLI_ERR_USAGE';
    case 'http':
      // 503 Service Unavailable: the agent is there but not serving now, as a refused connection is.
      return error.status === 503 ? 'A2ACLI_ERR_UNREACHABLE' : undefined;
    case 'card':
      if (error.status === 503) return 'A2ACLI_ERR_UNREACHABLE';
      if (error.status !== undefined) return 'A2ACLI_ERR_CARD_NOT_FOUND';
      return networkCause(error) === undefined ? 'A2ACLI_ERR_CARD_INVALID' : 'A2ACLI_ERR_UNREACHABLE';
    case 'network':
      return 'A2ACLI_ERR_UNREACHABLE';
    case 'auth':
      return error.auth?.sent === 'none' ? 'A2ACLI_ERR_CREDENTIALS_MISSING' : 'A2ACLI_ERR_AUTH_FAILED';
    case 'timeout':
      return 'A2ACLI_ERR_TIMEOUT';
    case 'foreign-task':
      return 'A4H_ERR_FOREIGN_TASK';
    case 'aborted':
      return 'A4H_ERR_CANCELLED';
    default:
      return undefined;
  }
}

/** A2A's name for the error: the first typed error of the cause chain that carries one, else its code's. */
function a2aName(error: A2AError): string | undefined {
  for (let link: unknown = error.cause, depth = 0; link instanceof Error && depth < 8; link = link.cause, depth++) {
    if (A2A_ERROR_NAME_SET.has(link.name)) return link.name;
  }
  return error.code === undefined ? undefined : A2A_ERROR_NAMES[error.code];
}

function local(code: CliErrorCode, a2aCode: number | null): ErrorClass {
  return { code, exit: CLI_ERRORS[code], a2aCode };
}

/** The exit status of an error (see {@link classifyError}). */
export function exitStatusOf(error: unknown): number {
  return classifyError(error).exit;
}

/** The error envelope of `error`, with its hint (null when none). The message names no credential: the library's never do. */
export function errorEnvelope(error: unknown, hint: string | null = null): ErrorEnvelope {
  const { code, a2aCode } = classifyError(error);
  return { error: { code, message: describeError(error), hint, a2aCode } };
}
