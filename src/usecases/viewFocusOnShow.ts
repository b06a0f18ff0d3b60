// Where the keyboard focus goes when a person opens the Servers view (View: Show MCP Host, the
// activity bar, the status bar entry). VS Code asks the view's tree to take the focus at once, but a
// tree shown for the first time has no rows yet (they come from the extension host a moment later),
// so VS Code focuses the view's frame and the focus lands on no row (issue 39). The opening is seen
// as the view going from hidden to visible; once the rows are there (the configuration read), the
// first row, or the welcome when there is none, takes the focus, once.
// A view visible when MCP Host activates (VS Code restored it at startup) is not an opening: the
// focus stays in the editor. Nor is a view the extension itself reveals without the focus.

/** How long after the view opened its rows may still take the focus (ms): later, the person has moved on. */
export const SHOW_FOCUS_WINDOW_MS = 5_000;

export class ViewFocusOnShow {
  private visible: boolean;
  private openedAt: number | undefined;
  private ownReveals = 0;

  constructor(
    initiallyVisible: boolean,
    private readonly now: () => number = Date.now,
  ) {
    this.visible = initiallyVisible;
  }

  /** The view's visibility changed; hidden to visible is an opening (unless the extension is revealing a row). */
  visibilityChanged(visible: boolean): void {
    if (visible && !this.visible && this.ownReveals === 0) this.openedAt = this.now();
    if (!visible) this.openedAt = undefined;
    this.visible = visible;
  }

  /** Runs the extension's own reveal of a row: the view it shows meanwhile is not the person's opening. */
  async revealing<T>(reveal: () => Thenable<T>): Promise<T> {
    this.ownReveals++;
    try {
      return await reveal();
    } finally {
      this.ownReveals--;
    }
  }

  /** The rows may be ready (`loaded`: the configuration was read): true, once, when the focus should go to them now. */
  shouldFocus(loaded: boolean): boolean {
    if (this.openedAt === undefined || !loaded || !this.visible) return false;
    const recent = this.now() - this.openedAt <= SHOW_FOCUS_WINDOW_MS;
    this.openedAt = undefined;
    return recent;
  }
}
