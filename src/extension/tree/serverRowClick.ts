// What a server row in the MCP Host view does when clicked. VS Code runs a row's command on the
// same click that expands or collapses it, so a row with children (running, failed, blocked) has
// no command: the click opens or closes it, and Server Details stays in its context menu and the
// palette. A row without children opens Server Details (or Sign In, when that is what it waits for).
import type { StatusKind } from './serverRowText';

/** Whether a server row in this state has children to show (its lists, its error, why it is blocked). */
export function serverRowExpands(kind: StatusKind): boolean {
  switch (kind) {
    case 'running':
    case 'error':
    case 'blocked':
      return true;
    case 'stopped':
    case 'starting':
    case 'stopping':
    case 'waiting':
    case 'signin':
      return false;
    default: {
      const never: never = kind;
      return never;
    }
  }
}

/** What a click on a server row runs: nothing on a row that expands (the click is for that). */
export function serverRowClick(kind: StatusKind): 'details' | 'signIn' | undefined {
  if (serverRowExpands(kind)) return undefined;
  return kind === 'signin' ? 'signIn' : 'details';
}
