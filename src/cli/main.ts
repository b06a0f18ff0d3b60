// The `mcp-host` command: runs an MCP server over stdio, performs one operation, shuts it down.
// Process glue only (signals, exit status); the work is in run.ts. Imports no `vscode`.
import * as os from 'node:os';
import { EXIT_ON_STDIN_CLOSE } from './arguments';
import { Interrupted, runCli } from './run';
import { terminalSafe } from './terminalText';
import { terminalQuestion } from './verbs/approval';
import { errorMessage } from '../protocol/errors';

function main(): void {
  const interrupt = new AbortController();
  const force = new AbortController();
  let received: NodeJS.Signals | undefined;
  const onSignal = (name: NodeJS.Signals) => {
    received ??= name;
    // A second Ctrl-C means "now": kill the server without the grace periods.
    if (interrupt.signal.aborted) force.abort();
    else interrupt.abort(new Interrupted(`interrupted by ${name}`, 128 + (os.constants.signals[name] ?? 2)));
  };
  // SIGHUP: the terminal closed. The servers are shut down as on Ctrl-C, nothing left behind.
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  process.on('SIGHUP', onSignal);
  // A closed pipe downstream (`mcp-host inspect … | head`) is not worth a stack trace; a
  // terminal that went away (EIO) must not end the run before its servers are stopped.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') interrupt.abort(new Interrupted('stdout was closed'));
  });
  process.stderr.on('error', () => {});

  // The gateway serves until a signal (so `&`, nohup and services can run it with stdin closed or
  // /dev/null), or also until stdin closes when its parent asks for that.
  const own = process.argv.slice(2, process.argv.includes('--') ? process.argv.indexOf('--') : undefined);
  if (own.includes('gateway') && own.includes(EXIT_ON_STDIN_CLOSE)) {
    process.stdin.on('end', () => interrupt.abort(new Interrupted('stdin was closed'))).resume();
  }

  const io = {
    stdout: (text: string) => void process.stdout.write(text),
    stderr: (text: string) => void process.stderr.write(text),
    stderrColumns: process.stderr.isTTY ? process.stderr.columns || 80 : undefined,
    stdoutColumns: (process.stdout.isTTY ? process.stdout.columns : undefined) || Number(process.env.COLUMNS) || 80,
    ...(process.stdin.isTTY && process.stderr.isTTY ? { ask: terminalQuestion(process.stdin, process.stderr) } : {}),
  };
  runCli(process.argv.slice(2), io, { interrupt: interrupt.signal, force: force.signal }).then(
    (code) => {
      // Let piped output drain before exiting (pipes are asynchronous on some platforms).
      process.stdout.write('', () => {
        // The terminal is gone: Node's exit would restore its modes and abort (a ResetStdio
        // assertion). Dying of the signal itself skips that, and the shell sees 129 all the same.
        if (received === 'SIGHUP') {
          process.removeAllListeners('SIGHUP');
          process.kill(process.pid, 'SIGHUP');
        }
        process.exit(code);
      });
    },
    (error: unknown) => {
      // runCli reports its own failures; reaching this is a bug, still worth one line.
      process.stderr.write(terminalSafe(`mcp-host: internal error: ${errorMessage(error)}`) + '\n');
      process.exit(2);
    },
  );
}

main();
