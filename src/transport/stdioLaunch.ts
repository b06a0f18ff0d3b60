// Starting a stdio server's process: the working directory checked, the command resolved on
// PATH, wrapped in its sandbox when it has one, spawned in its own process group, and the
// 'spawn' event awaited. A failure here is a McpLocalError('spawn') naming the command.
import { ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import { McpLocalError } from '../protocol/errors';
import { ProcessEnv, resolveCommand } from './commandResolver';
import { sandboxedLaunch, StdioSandbox } from './sandboxedLaunch';

/** What a launch needs: the command line, where and with which environment, and the sandbox if any. */
export interface StdioLaunch {
  readonly command: string;
  readonly args: string[];
  readonly cwd: string;
  readonly env: ProcessEnv;
  /** The process tag's variable name, passed into the sandbox. */
  readonly tagName: string;
  readonly sandbox?: StdioSandbox;
}

/**
 * Spawns the server and resolves once it runs. Rejects with McpLocalError('spawn') for a missing
 * working directory, command or a failed spawn, and with McpLocalError('closed') when `closing()`
 * says the transport was closed while the command was being resolved.
 */
export async function launchServerProcess(launch: StdioLaunch, closing: () => boolean): Promise<ChildProcessWithoutNullStreams> {
  const { command, args, cwd, env, sandbox } = launch;
  await assertDirectory(cwd, command);
  const file = await resolveCommand(command, { env, cwd });
  const run = sandbox ? await sandboxedLaunch(sandbox, { name: command, file, args, cwd, env, passEnv: [...sandbox.passEnv, launch.tagName] }) : { file, args };
  const dispose = 'dispose' in run ? run.dispose : undefined;
  if (closing()) {
    await dispose?.();
    throw new McpLocalError('closed', 'the transport was closed while starting');
  }
  const child = spawnChild(run.file, run.args, cwd, env);
  // The sandbox's proxy lives as long as the process.
  if (dispose) child.once('close', () => void dispose());
  await new Promise<void>((resolve, reject) => {
    const onSpawn = () => {
      child.off('error', onError);
      resolve();
    };
    const onError = (error: Error) => {
      child.off('spawn', onSpawn);
      // The streams of a process that never ran are of no use.
      child.stdin.destroy();
      child.stdout.destroy();
      child.stderr.destroy();
      reject(error);
    };
    child.once('spawn', onSpawn);
    child.once('error', onError);
  });
  return child;
}

function spawnChild(file: string, args: string[], cwd: string, env: ProcessEnv): ChildProcessWithoutNullStreams {
  const windows = process.platform === 'win32';
  // Since Node 20.12 (CVE-2024-27980) .cmd/.bat files (npx.cmd) only run through the shell.
  const viaShell = windows && /\.(cmd|bat)$/i.test(file);
  return spawn(viaShell ? quoteForCmd(file) : file, viaShell ? args.map(quoteForCmd) : args, {
    cwd,
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
    // Its own process group on POSIX, so one kill(-pid) reaches the whole group.
    detached: !windows,
    windowsHide: true,
    shell: viaShell,
  });
}

/** Quotes one argument for cmd.exe. */
function quoteForCmd(arg: string): string {
  return /^[\w\-.:\\/=]+$/.test(arg) ? arg : `"${arg.replace(/"/g, '""')}"`;
}

async function assertDirectory(cwd: string, command: string): Promise<void> {
  let isDirectory = false;
  try {
    isDirectory = (await fs.stat(cwd)).isDirectory();
  } catch {
    // reported below
  }
  // spawn would report a missing cwd as ENOENT, which reads like the command is missing.
  if (!isDirectory) throw new McpLocalError('spawn', `cannot start "${command}": the working directory ${cwd} does not exist`, { command, cwd });
}
