// Where the keyboard focus goes when a server's dialog (an elicitation form, a sampling request)
// closes. A dialog is its own webview panel; when it closes VS Code activates the editor that was
// active before it, often the tool panel whose call asked, but the page inside keeps whatever
// element it last had, which the call may have hidden or removed meanwhile (Cancel once the call
// ended), so the focus lands on nothing (issue 39). The panel activated just after the last dialog
// closed is told so once, and its page puts the focus somewhere meaningful.

/** How long after a dialog closes the activation of a panel counts as VS Code's doing (ms). */
export const FOCUS_RETURN_WINDOW_MS = 2_000;

export class DialogFocusReturn {
  private closedAt: number | undefined;

  constructor(private readonly now: () => number = Date.now) {}

  /** The number of open dialogs is now `open`: the last one closing starts the window. */
  dialogsChanged(open: number): void {
    this.closedAt = open === 0 ? this.now() : undefined;
  }

  /** A panel became active: true (once) when that follows the last dialog's close. */
  panelActivated(): boolean {
    const closedAt = this.closedAt;
    this.closedAt = undefined;
    return closedAt !== undefined && this.now() - closedAt <= FOCUS_RETURN_WINDOW_MS;
  }
}
