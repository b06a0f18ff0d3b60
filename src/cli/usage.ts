// The text `mcp-host --help` prints (docs/cli.md is held to it by test/docs/cliReference.test.ts).
import { PROTOCOL_PREFERENCES } from '../client/era';
import { LoggingLevels } from '../client/schemas';
import { SANDBOX_USAGE } from './sandboxArguments';

export const USAGE = `Usage: mcp-host <command> [options] -- SERVER_COMMAND [SERVER_ARGS...]
       mcp-host <command> [options] --url URL [--header "Name: value"]... [--transport auto|http|sse]
                                 [--no-browser] [--allow-local-auth] [--token-cache DIR] [--client-id ID
                                 [--client-secret-env VAR]] [--client-metadata-url URL]
                                 [--scope SCOPES] [--grant GRANT ...] [--dpop MODE]
       mcp-host <command> [options] --config FILE [--server NAME]...

Runs an MCP server over stdio (or connects to a remote one over HTTP), performs one
operation and shuts the server down (ends the HTTP session).

Commands:
  inspect            server info, negotiated version, capabilities, instructions,
                     and every tool, resource, resource template and prompt
  tools              the tools with their descriptions and parameters; with --search "QUERY"
                     [--limit K], the best matches (by what each tool does: name, title,
                     description, parameters) over every server given, best first
  call TOOL          call a tool (arguments from --args) and print its result
  read URI           read a resource and print its contents
  skills             the skills the server offers (Skills extension): name, description, files
  skill URI          load a skill (URI of its SKILL.md), verify it (size, digest, frontmatter)
                     and print it; --out DIR writes its verified files to DIR
  prompt NAME        get a prompt (arguments from --args) and print its messages
  ping               print the round-trip time of a ping
  gateway            serve the server(s) to other MCP clients on 127.0.0.1 (Streamable HTTP,
                     a secret header per run) until a signal (Ctrl-C, SIGTERM); prints each
                     server's URL and headers (the first stdout line with --json), and
                     config snippets for .mcp.json and .vscode/mcp.json
  tasks              list the tasks the server holds (2025-11-25 tasks/list)
  doctor             walk the path to the server step by step (command on PATH, its exit
                     and output; DNS, TCP, TLS, HTTP, sign-in metadata; the handshake)
                     and say where it breaks and what to do (exit 2 when broken)
  test FILE          run the saved calls of a test file (.vscode/mcp-tests.json) against
                     the servers of --config, of the file's own "servers", or of the
                     mcp.json beside it; one line a test, exit 1 when any fails
  registry search [QUERY]   search an MCP Registry (--registry URL, default the official one;
                     --limit N, --cursor C for the next page; --registry-token-env VAR for a
                     private registry's bearer token)
  registry show NAME        a server's description, repository and the ways to install it
  registry install NAME     write its entry into --target FILE (.vscode/mcp.json, the default,
                     .mcp.json, a settings.json, or "user": your VS Code user settings):
                     --use N picks the package or remote, --version V, --name KEY;
                     what you must supply becomes an input (or an environment reference),
                     secrets are never written; unsafe entries are refused
  registry outdated         the entries of --target installed from a registry, and which have
                     a newer version there
  registry update KEY       rewrite entry KEY of --target at the registry's newer version (only
                     that entry; the same package type or remote, the same inputs)
  replay FILE        send the requests of a recording (--record) to the server again and
                     compare each answer with the recorded one (exit 1 on a difference);
                     --ignore POINTER leaves a JSON Pointer of the answers out (repeatable)
  diff A.json [B.json]
                     what changed between two \`inspect --json\` snapshots, or between a
                     snapshot and the live server (exit 0 when nothing changed, 1 when
                     something did); --server-version also compares the server's version

Options:
  --args JSON              arguments for call/prompt, a JSON object: '{"a":1}'; call checks them
                           against the tool's inputSchema first (--no-validate sends them as given)
  --yes                    replay/test: run the calls of a file that may change things (and the
                           servers a test file brings) without asking; without a terminal to ask
                           on, replay and test refuse them unless --yes is given
  --json                   print one JSON document instead of readable text
  --trace                  print every JSON-RPC frame and the server's stderr to stderr
  --roots DIR[,DIR...]     expose these directories to the server as roots (the command
                           waits briefly for the server to ask for them)
  --protocol-version V     the era or version to speak: auto (default: server/discover, falling back to
                           initialize), legacy, modern, or a version (${PROTOCOL_PREFERENCES.slice(3).join(', ')})
  --timeout MS             per-request timeout in milliseconds (default 60000); for
                           call, each progress report from the server restarts it
  --connect-timeout MS     how long a stdio server may stay quiet after its last output
                           before an unanswered server/discover means the legacy era
                           (default 3000); the era found is kept in the user's cache
                           directory, so later runs do not probe
  --task                   call: run the tool as a task where it allows one (taskSupport
                           optional); a tool that requires a task always runs as one, with
                           its status on stderr; Ctrl-C cancels it (tasks/cancel)
  --strict                 a call result that breaks the tool's outputSchema fails (exit 1)
                           instead of a warning on stderr
  --log-level LEVEL        print the server's log messages at this level or above to
                           stderr: ${LoggingLevels.join(', ')} (default info)
  --max-message-mb N       largest message accepted from the server, in MiB (default 128)
  --junit OUT.xml          test: also write the results as JUnit XML (for CI systems)
  --record FILE            write every JSON-RPC frame of the session to FILE, one JSON
                           object a line (direction, time, size; secrets redacted)
  --url URL                connect to a remote server instead of running a command
  --header "Name: value"   send this HTTP header with every request (repeatable);
                           values of Authorization-like headers never appear in the output
  --transport MODE         auto (Streamable HTTP, falling back to HTTP+SSE; the default),
                           http (Streamable HTTP only) or sse (legacy HTTP+SSE)
  --config FILE            the servers of a .vscode/mcp.json or .mcp.json file (either format),
                           variables resolved as the extension resolves them; \${input:ID} is
                           read from the environment variable MCP_HOST_INPUT_ID
  --pins FILE              check the servers' tools against the pins in FILE (JSON): a tool whose
                           definition changed since it was pinned exits 2 naming it; tools not
                           pinned yet are added to FILE
  --server NAME            with --config: this server of the file (repeatable); without it,
                           every server (tools and gateway take them all; other commands need one)
  --out DIR                skill: write the skill's verified files under DIR (new files only)
  --port N                 gateway: the port to listen on (default: a free one)
  --exit-on-stdin-close    gateway: also end when stdin closes (for a parent that holds the pipe;
                           without it, a closed stdin or /dev/null is ignored: runs under &, nohup)

${SANDBOX_USAGE}

Sign-in (--url servers that answer 401; not with an Authorization header):
  The authorization URL is printed on stderr and opened in the browser ($BROWSER if
  set); the browser comes back to a one-time listener on 127.0.0.1 (5 minutes at most).
  No token, code or secret is ever printed, not with --trace either.
  --no-browser             only print the authorization URL
  --allow-local-auth       let a remote server's metadata name http or local and private
                           addresses for its authorization (refused by default)
  --token-cache DIR        keep tokens in DIR/mcp-host-tokens.json (mode 0600) for the
                           next runs, refreshed when expired; by default nothing is kept
  --client-id ID           a client registered beforehand with the authorization server
  --client-secret-env VAR  its secret, read from the environment variable VAR
  --client-metadata-url URL
                           the https URL of a client id metadata document you host: the
                           client id where the authorization server supports such documents
  --scope SCOPES           ask for these scopes (space or comma separated) instead of
                           those the server names
  --grant GRANT            get tokens without a browser: client_credentials (--client-id with
                           --client-secret-env or --private-key-file) or workload_identity
                           (--workload-token-file FILE or --workload-token-env VAR: the token
                           a CI system or Kubernetes gives the job; --client-id if needed)
  --private-key-file FILE  the client's private key (PEM) for private_key_jwt
  --workload-token-file FILE, --workload-token-env VAR
                           where the workload token is read, at each token request
  --dpop MODE              DPoP-bound tokens: auto (when offered; default), off, required
  -h, --help               print this help
  -V, --version            print the version of mcp-host

Exit status: 0 on success, 1 when the tool reported an error (isError) or, with
--strict, its result broke its outputSchema, 2 for usage, connection, protocol and
sign-in errors, 130 when interrupted (Ctrl-C; a second Ctrl-C kills the server
without waiting), 129 on SIGHUP (the terminal closed), 143 on SIGTERM.

Examples:
  mcp-host inspect -- npx -y @modelcontextprotocol/server-everything
  mcp-host call echo --args '{"message":"hi"}' -- node server.js
  mcp-host call list_allowed_directories --roots . -- npx -y @modelcontextprotocol/server-filesystem
  mcp-host tools --url https://mcp.example.com/mcp --header "Authorization: Bearer $TOKEN"
  mcp-host tools --url https://mcp.example.com/mcp --token-cache ~/.cache/mcp-host
  mcp-host inspect --config .vscode/mcp.json --server notes
  mcp-host skill skill://pdf-processing/SKILL.md --out ./pdf-processing -- node server.js
  mcp-host gateway --json --config .mcp.json
  mcp-host registry search filesystem
  mcp-host registry install io.github.modelcontextprotocol/filesystem --target .mcp.json
  mcp-host inspect --json -- node server.js > before.json; mcp-host diff before.json -- node server.js`;
