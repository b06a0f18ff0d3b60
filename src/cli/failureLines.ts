// The lines the CLI prints for a failure: one `mcp-host: …` line, then what the server said.
// A server that died mid-call shows its last stderr lines; one that exited before answering
// anything shows the lines that explain a start-up failure (the first lines, any line naming a
// missing variable, key or file, the last: StderrExcerpt), and its first lines on stdout.
import { failedAtStart } from '../client/eraProbe';
import { LocalErrorOf, McpLocalError, connectionEndOf } from '../protocol/errors';
import { excerptOf, isTellingLine } from '../protocol/stderrExcerpt';
import { TransportCloseReason } from '../protocol/transport';
import { UsageError } from './arguments';

/** How many of the first lines a server that exited before answering printed on stdout are shown. */
export const STDOUT_HEAD_SHOWN = 5;
/** How many server stderr lines to show when the server dies unexpectedly. */
export const STDERR_TAIL_SHOWN = 10;

/** What the run saw of a server that has not answered yet: its first lines on stdout that are not JSON-RPC. */
export interface BeforeAnswering {
  readonly stdout: readonly string[];
}

/**
 * The lines to print for a failure: one `mcp-host:` line, then the server's last stderr lines if
 * it died; for a command that exited before answering at all (`beforeAnswering`), what explains it.
 */
export function describeFailure(error: unknown, beforeAnswering?: BeforeAnswering): string[] {
  const [first, ...rest] = beforeAnswering && McpLocalError.is(error, 'server-exited') ? exitedBeforeAnswering(error, beforeAnswering) : failureLines(error);
  // One line, whatever the server put in its error message.
  return [first.replace(/\s*[\r\n]+\s*/g, ' '), ...rest];
}

function failureLines(error: unknown): string[] {
  if (error instanceof UsageError) return [`mcp-host: ${error.message}`, `Run 'mcp-host --help' for usage.`];
  if (McpLocalError.is(error)) {
    if (error.kind === 'server-exited') {
      // Built from the error's fields: its message ends with a stderr digest, shown in full below.
      const { method, reason } = error.details;
      const message = reason ? `the server ${TransportCloseReason.describe(reason)}${method ? ` during ${method}` : ''}` : error.message;
      const shown = stderrOf(error, 'tail').slice(-STDERR_TAIL_SHOWN);
      return [`mcp-host: ${message}`, ...(shown.length ? ["mcp-host: last lines of the server's stderr:", ...shown.map((l) => `  ${l}`)] : ["mcp-host: it printed nothing on stderr"])];
    }
    if (error.kind === 'timeout') return [`mcp-host: ${error.message}; raise it with --timeout MS`];
    return [`mcp-host: ${error.message}`];
  }
  if (error instanceof Error) return [`mcp-host: ${error.message || error.name}`];
  return [`mcp-host: ${String(error)}`];
}

/**
 * A command that ended before it answered anything: a start-up failure whose stderr says why (a
 * missing variable), or maybe not an MCP server at all (`echo hello`).
 */
function exitedBeforeAnswering(error: McpLocalError<'server-exited'>, heads: BeforeAnswering): string[] {
  const { method, reason } = error.details;
  const how = reason?.kind === 'process-exited' ? (reason.signal ? ` on signal ${reason.signal}` : ` with code ${reason.code}`) : '';
  const stderr = stderrOf(error, 'excerpt');
  const when = failedAtStart(error) || !method ? 'at start, before answering anything' : `before answering ${method}`;
  // A reason on stderr answers the question; without one the command may be no server at all.
  const question = stderr.some(isTellingLine) ? '' : ': is it an MCP server speaking JSON-RPC on stdio?';
  const lines = [`mcp-host: the command exited${how} ${when}${question}`];
  lines.push(heads.stdout.length ? 'mcp-host: its first lines on stdout:' : 'mcp-host: it printed nothing on stdout', ...heads.stdout.map((l) => `  ${l}`));
  const cut = stderr.some((l) => l.startsWith('… '));
  lines.push(stderr.length ? `mcp-host: ${cut ? 'what it printed on stderr (first lines, the lines that say why, last lines)' : 'what it printed on stderr'}:` : 'mcp-host: it printed nothing on stderr', ...stderr.map((l) => `  ${l}`));
  return lines;
}

/** The server's stderr an error carries: the explaining excerpt, or the plain last lines. */
function stderrOf(error: LocalErrorOf, which: 'excerpt' | 'tail'): readonly string[] {
  const { stderrTail: tail = [], stderrExcerpt } = connectionEndOf(error);
  if (which === 'tail') return tail;
  return stderrExcerpt ?? excerptOf(tail);
}
