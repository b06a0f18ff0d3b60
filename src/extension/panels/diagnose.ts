// Diagnose: the connection doctor for a server of the editor, its report rendered from a read-only Markdown document.
import * as vscode from 'vscode';
import type { ServerHandle } from '../../registry/serverRegistry';
import { transportFactory } from '../../transport/transportFactory';
import { describeDiagnosis, diagnose, diagnosisMarkdown } from '../../usecases/doctor';
import type { UseCaseContext } from './useCaseContext';

/**
 * Walks the path to the server with what it would be started with (trust, consent and inputs as
 * for a start: nothing runs that the user has not allowed) and opens the report.
 */
export async function diagnoseServer(ctx: UseCaseContext, server: ServerHandle): Promise<void> {
  const prepared = ctx.deps.prepare ? await ctx.deps.prepare(server.id) : server.resolved;
  if (!prepared) throw new Error(`${server.entry.name} has not been started yet and cannot be prepared here`);
  if ('blocked' in prepared) {
    void vscode.window.showWarningMessage(`MCP Host: ${server.entry.name} cannot be diagnosed: ${prepared.blocked}`);
    return;
  }
  const signIn = ctx.deps.signInState?.(server.id);
  const report = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Diagnosing ${server.entry.name}…` }, () =>
    diagnose(prepared, {
      createTransport: transportFactory(),
      clientInfo: { name: 'mcp-host-doctor', version: String((ctx.extension.extension.packageJSON as { version?: unknown }).version ?? '0.0.0') },
      tokenState: () => (signIn?.required ? (signIn.signedIn ? 'signed in (the diagnosis itself sends no token)' : 'sign-in required, not signed in') : undefined),
    }),
  );
  const redact = ctx.deps.redact ?? ((t: string) => t);
  const text = diagnosisMarkdown(server.entry.name, new Date().toLocaleString(), describeDiagnosis(report).map(redact));
  ctx.deps.log(server.id, report.healthy ? 'info' : 'warn', `diagnosis: ${report.healthy ? 'healthy' : describeDiagnosis(report).at(-1)}`);
  await ctx.documents.openRendered(`diagnosis-${server.entry.name}.md`, text, { key: `diagnosis:${server.id}` });
}
