// Reads the extension host's own log (`<user-data>/logs/<session>/exthost<N>/remoteexthost.log`
// in code-server, `exthost.log` in desktop VS Code) for errors an extension caused. An entry
// is a line starting with a timestamp plus the lines under it (a stack trace).

/** The extension id as the log names it: in "Activating extension <id>" and in its install folder. */
export const MCP_HOST_EXTENSION_ID = 'mcp-host.mcp-host';

const ENTRY_START = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} \[(\w+)\] /;

/**
 * The `[error]` entries of the log that name `extensionId` (in the message or in a stack frame
 * from its folder), each as its first line plus the first frame from the extension.
 */
export function extensionErrors(logText: string, extensionId = MCP_HOST_EXTENSION_ID): string[] {
  const entries: string[][] = [];
  for (const line of logText.split('\n')) {
    if (ENTRY_START.test(line) || entries.length === 0) entries.push([line]);
    else entries[entries.length - 1].push(line);
  }
  const errors: string[] = [];
  for (const entry of entries) {
    if (ENTRY_START.exec(entry[0])?.[1] !== 'error') continue;
    const ours = entry.filter((line) => line.includes(extensionId));
    if (ours.length === 0) continue;
    const frame = ours.find((line) => line !== entry[0]);
    errors.push(frame ? `${entry[0]}\n${frame.trim()}` : entry[0]);
  }
  return errors;
}
