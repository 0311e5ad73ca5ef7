/**
 * The two vocabularies of the A2A CLI specification's error envelope (its §9.4, Appendix E): A2A's own
 * error names for a failure the protocol names, and the `A2ACLI_ERR_*` codes for the CLI's own, each
 * with the exit status it maps to. a4h's own conditions that neither names use the `A4H_ERR_` prefix
 * (the specification keeps its namespace for itself).
 */

/** A2A's error names (A2A §3.3.2) by their JSON-RPC code, and JSON-RPC's own. */
export const A2A_ERROR_NAMES: Readonly<Record<number, string>> = {
  [-32001]: 'TaskNotFoundError',
  [-32002]: 'TaskNotCancelableError',
  [-32003]: 'PushNotificationNotSupportedError',
  [-32004]: 'UnsupportedOperationError',
  [-32005]: 'ContentTypeNotSupportedError',
  [-32006]: 'InvalidAgentResponseError',
  [-32007]: 'AuthenticatedExtendedCardNotConfiguredError',
  [-32008]: 'ExtensionSupportRequiredError',
  [-32009]: 'VersionNotSupportedError',
  [-32700]: 'JSONParseError',
  [-32600]: 'InvalidRequestError',
  [-32601]: 'MethodNotFoundError',
  [-32602]: 'InvalidParamsError',
  [-32603]: 'InternalError',
};

/** The names of {@link A2A_ERROR_NAMES}, as a set: the SDK's typed errors carry them as their `name` on every binding. */
export const A2A_ERROR_NAME_SET: ReadonlySet<string> = new Set(Object.values(A2A_ERROR_NAMES));

/** The specification's CLI-local error codes (Appendix E) and a4h's own, with their exit statuses. */
export const CLI_ERRORS = {
  A2ACLI_ERR_USAGE: 2,
  A2ACLI_ERR_CARD_NOT_FOUND: 3,
  A2ACLI_ERR_CARD_INVALID: 1,
  A2ACLI_ERR_UNREACHABLE: 3,
  A2ACLI_ERR_CREDENTIALS_MISSING: 4,
  A2ACLI_ERR_AUTH_FAILED: 4,
  A2ACLI_ERR_TIMEOUT: 5,
  A2ACLI_ERR_INTERNAL: 1,
  /** a4h's: a task given by id belongs to another thread than the one named; nothing was sent. */
  A4H_ERR_FOREIGN_TASK: 1,
  /** a4h's: the caller stopped the command (Ctrl-C, SIGTERM); its message says whether CancelTask went (only for a task the agent named). */
  A4H_ERR_CANCELLED: 1,
} as const;

/** A CLI-local error code: one of {@link CLI_ERRORS}. */
export type CliErrorCode = keyof typeof CLI_ERRORS;

/**
 * The exit statuses (the specification's §9.6): 0 the command did its job (whatever the task's
 * outcome), 1 failure, 2 usage, 3 agent or card unreachable, 4 authentication, 5 timeout.
 */
export const EXIT = { ok: 0, failure: 1, usage: 2, unreachable: 3, auth: 4, timeout: 5 } as const;
