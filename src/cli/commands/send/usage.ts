/** `a4h send --help`: the synopsis (a test keeps its flags the parser's), what each does, the defaults. */
export const SEND_USAGE = `Usage: a4h send <agent> [--text TEXT]… [--file PATH|URL]… [--data FILE|-]… [--media-type TYPE] [-o text|json]
                [--stream] [--async] [--wait] [--timeout DURATION] [--poll-interval DURATION] [--context-id ID]
                [--task-id ID] [--thread KEY] [--handle NAME] [--message-id ID] [--push-url URL] [-a REF] [--transport BINDING]…
                [--a2a-version VERSION] [--debug] [--json] [--attach PATH]… [--save DIR] [--extension URI]…
                [-H 'Name: value']… [--bearer-env VAR]
                [--oauth-client-id ID --oauth-client-secret-env VAR [--oauth-scope S]… [--oauth-token-url URL] [--oauth-card-scopes]]
                [--bearer TOKEN] [--api-key KEY] [--svc-param KEY:VALUE]… [--insecure] [--config FILE]
                [--cert FILE] [--key FILE] [--key-pass-env VAR] [--cacert FILE]
                [--trust-jwks FILE|URL]… [--require-signed-card] [<text…>]

Sends one message to the agent (<agent>: its URL, or -a/--agent-card REF) and prints its answer.
The message's parts, in the order given: the words after the agent (one text part), then each --text,
--file (a local file's bytes, or an http(s) URL the agent fetches) and --data (JSON from a file, or
stdin for -); --media-type sets the type of the part flag just before it (else it is inferred).

Output (stdout; notices and errors on stderr):
  text (default)  one "Label: value" line per field (Task ID, Context ID, State, Message ID; Usage when the
                  agent reported usage), then blocks (Status Message:, Artifact: NAME, Message:) each closed by
                  a blank line.
  -o json         one JSON document: the agent's SendMessageResponse ({"task"} or {"message"}), as A2A
                  v1.0 writes it. With --stream: JSON Lines, one StreamResponse per event as it arrives.
  --stream        follow the agent's events live (text: one record per event, the last restating the ids
                  and state). An agent whose card does not stream gets one blocking send, said on stderr.
  --async         do not wait: the task as it stands (its Task ID and Context ID), to follow later.
  --json          a4h's own turn events, one JSON object per line (see docs/cli.md); not with -o/--stream.
  A failure: Error:, Message:, Hint: on stderr; under -o json also {"error":{"code","message","hint","a2aCode"}}
  on stdout (code: the agent's A2A error name, or A2ACLI_ERR_*).

Continuing: --context-id ID puts the message in that interaction (a new task in it); --task-id ID answers
that task (one waiting for input). Nothing is remembered between runs unless you ask: --thread KEY keeps
a conversation (its contextId derived from A4H_IDENTITY_SECRET, --handle and KEY; a task left waiting on
it is answered). A task waiting for you is named on stderr with the command that answers it.

Push notifications: --push-url URL asks the agent to post the task's updates to URL (a push config on the
message), for a receiver run elsewhere: another \`a4h task subscribe <task-id> --push --push-listen HOST:PORT\`
(with the same A4H_IDENTITY_SECRET), or a gateway's createPushReceiver. The credential the agent sends with
each post names the message's conversation and is derived from A4H_IDENTITY_SECRET (required); the message
names a conversation (--context-id, --thread, the --task-id's, or a new one). Most useful with --async.

Exit status: 0 the command did its job, whatever the task's outcome (a failed or waiting task is named on
stderr); 1 failure; 2 bad usage; 3 agent or card unreachable; 4 credentials missing or refused; 5 --timeout.

Defaults (each overridden by its flag):
  output            text                     (-o json)
  completion        wait for a terminal or interrupted state   (--async)
  --timeout         30m                      (a number of seconds, or 500ms, 2s, 5m, 1h)
  --poll-interval   1s, growing to 15s       (when the agent does not stream, or the stream broke)
  transport         the card's first interface this client speaks   (--transport JSONRPC|HTTP+JSON|GRPC, in order)
  --a2a-version     the newest the agent offers, 1.0 at least   (--a2a-version 0.3, or A2ACLI_A2A_VERSION=0.3 in the
                    environment or a config file, allows an agent before 1.0: a card that says 0.1, 0.2 or 0.3)
  detail            concise                  (--verbose: the causes of an error)
  TLS               certificates verified    (--insecure, always warned on stderr)
--debug logs each request and answer on stderr, gRPC calls too (every credential redacted: headers, queries, bodies).
-H adds a header to every request to the agent's origin; --bearer-env reads a bearer token from an
environment variable; --oauth-client-id with --oauth-client-secret-env gets tokens by OAuth 2.0 client
credentials at --oauth-token-url, or the token URL the card names when it is on the agent's own origin,
for each --oauth-scope (or the card's scopes with --oauth-card-scopes). --extension activates an A2A extension (repeatable). --message-id names the
message (\`a4h resume --message ID\` asks a thread whether it arrived). --save DIR writes the agent's files.`;
