// What to tell the user when a sandbox cannot start, from the platform and from what `bwrap`
// printed. Plain text builders: the transport runs the processes, these only read the outcome.
// Each message says the server was not started and what fixes it: a server that asked for a
// sandbox is never run without one.

const PLATFORM_NAMES: Partial<Record<NodeJS.Platform, string>> = { darwin: 'macOS', win32: 'Windows', freebsd: 'FreeBSD', openbsd: 'OpenBSD' };

/** Where the sandbox runs: Linux only, through bubblewrap. */
export function sandboxSupported(platform: NodeJS.Platform): boolean {
  return platform === 'linux';
}

/** The error for a platform without our sandbox (macOS's sandbox-exec and Windows are not done yet). */
export function unsupportedPlatformMessage(command: string, platform: NodeJS.Platform): string {
  const name = PLATFORM_NAMES[platform] ?? platform;
  return `cannot start "${command}" in a sandbox: the sandbox is not supported on ${name} yet (only Linux, with bubblewrap); the server was not started. Run it on Linux, or remove "sandboxEnabled" to run it with your full access (not for a workspace server while mcpHost.sandbox.requireForWorkspaceServers is on).`;
}

/** The error for a machine without `bwrap` on PATH. */
export function bwrapMissingMessage(command: string, searched: string): string {
  return `cannot start "${command}" in a sandbox: bubblewrap (bwrap) is not installed (searched ${searched}); the server was not started. Install it: "sudo apt-get install bubblewrap" (Debian, Ubuntu), "sudo dnf install bubblewrap" (Fedora), "sudo pacman -S bubblewrap" (Arch).`;
}

/**
 * The error for a `bwrap` that ran but could not build the sandbox, from its exit code and
 * stderr. User namespaces switched off is the common cause, and its fix depends on the distribution.
 */
export function bwrapFailedMessage(command: string, exitCode: number | null, stderr: string): string {
  const said = stderr.trim().split('\n').slice(-3).join(' / ') || `exit code ${exitCode}`;
  const start = `cannot start "${command}" in a sandbox: bubblewrap could not create it (${said}); the server was not started.`;
  if (/namespace|uid map|setting up uid|Operation not permitted|Permission denied|No permissions/i.test(stderr)) {
    return `${start} User namespaces look disabled on this machine. Enable them: "sudo sysctl -w kernel.unprivileged_userns_clone=1" (Debian), or on Ubuntu 23.10+ "sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0" (or an AppArmor profile that allows bwrap); in a container, run it with user namespaces allowed (e.g. Docker's --security-opt seccomp=unconfined).`;
  }
  return `${start} Check that "bwrap --ro-bind / / --unshare-all true" works in a terminal.`;
}
