// The progress notification of a tool call, apart from the panel that started it.
import * as vscode from 'vscode';
import type { Progress } from '../../client/client';
import { onDidChangeOpenDialogs, openDialogCount } from '../webview/openDialogs';

/** Why a call ended, when the user pressed Cancel on its notification. */
const CANCELLED_IN_NOTIFICATION = 'you pressed Cancel in the notification';

/**
 * The progress notification of a call (with its Cancel button), shown once the call takes longer
 * than a moment, and hidden while a server's dialog asks the user something (openDialogs.ts); it
 * comes back, with the latest progress, when the dialog closes. It closes when disposed.
 */
export class ProgressNotification {
  private due = false;
  private disposed = false;
  private latest: Progress | undefined;
  private shown: { readonly close: () => void; report?: (p: Progress) => void } | undefined;
  private readonly timer: NodeJS.Timeout;
  private readonly dialogs: vscode.Disposable;

  constructor(
    private readonly title: string,
    private readonly abort: AbortController,
    delayMs = 400,
  ) {
    this.timer = setTimeout(() => {
      this.due = true;
      this.update();
    }, delayMs);
    this.dialogs = onDidChangeOpenDialogs(() => this.update());
  }

  private update(): void {
    const wanted = this.due && !this.disposed && openDialogCount() === 0;
    if (wanted && !this.shown) this.show();
    else if (!wanted && this.shown) {
      this.shown.close();
      this.shown = undefined;
    }
  }

  private show(): void {
    let close!: () => void;
    const closed = new Promise<void>((resolve) => (close = resolve));
    const shown: { readonly close: () => void; report?: (p: Progress) => void } = { close };
    this.shown = shown;
    void vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: this.title, cancellable: true }, async (progress, token) => {
      token.onCancellationRequested(() => this.abort.abort(CANCELLED_IN_NOTIFICATION));
      let last = 0;
      shown.report = (p) => {
        const pct = p.total && p.total > 0 ? Math.min(100, (p.progress / p.total) * 100) : undefined;
        progress.report({ message: p.message ?? `${p.progress}${p.total ? ` / ${p.total}` : ''}`, ...(pct !== undefined && pct > last ? { increment: pct - last } : {}) });
        if (pct !== undefined) last = Math.max(last, pct);
      };
      if (this.latest) shown.report(this.latest);
      await closed;
    });
  }

  report(p: Progress): void {
    this.latest = p;
    this.shown?.report?.(p);
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.disposed = true;
    this.dialogs.dispose();
    this.update();
  }
}
