// Where the keyboard focus goes when a person opens the Servers view (View: Show MCP Host, the
// activity bar, the status bar entry): on its first row, as in VS Code's own views (issue 39).
// VS Code focuses the view's tree but no row of it, and an extension can put the focus on a row
// only by revealing it with the focus, which also moves the DOM focus into the tree. So the focus is
// given only while the opening lasts: at once when the view opens with its rows, or when the first
// row settles a moment later. The first row is replaced by a new one when its server changes state
// (its id says the state, serversTree.ts), and the tree's focus does not follow a replaced row: the
// focus is given again to the row that replaced it, while the opening lasts.
// The opening lasts a moment after the view opened, or a moment after the person answered what the
// first row waited for (a consent dialog: while it is open nothing else can take the focus). A
// start slower than that moment does not carry it on: by then the person may have opened something
// an extension cannot see (the Command Palette, a quick pick of another extension), which the
// focus would take from them. It ends at once when the person does anything else the extension can
// see (`interrupted`). A view visible when MCP Host starts is VS Code restoring it, not an opening:
// the focus stays where it is.
// Plain logic, no `vscode`: serversViewFocus.ts adapts it.
import type { StatusKind } from './serverRowText';

/** How long the opening lasts after the view opened, or after the first row's wait was answered (ms). */
export const OPENING_MOMENT_MS = 3_000;
/** A visibility report this soon after the view was registered is VS Code's first report (a restored view). */
export const FIRST_REPORT_MS = 1_500;

/** The first row as the focus needs it: its id, and whether its server is between two states. */
export interface FirstRow {
  readonly id: string;
  /** `answering`: waits for the person (consent, an input); `changing`: starting or stopping; else `settled`. */
  readonly state: 'settled' | 'answering' | 'changing';
}

/** Where a server row's state leaves the focus: a server that waits for consent or an input waits for the person. */
export function firstRowState(kind: StatusKind): FirstRow['state'] {
  switch (kind) {
    case 'waiting':
      return 'answering';
    case 'starting':
    case 'stopping':
      return 'changing';
    case 'stopped':
    case 'running':
    case 'error':
    case 'blocked':
    case 'signin':
      return 'settled';
    default: {
      const unknown: never = kind;
      return unknown;
    }
  }
}

interface Opening {
  /** When the moment started: the opening, or the answer to what the first row waited for. */
  since: number;
  /** The first row waited for the person when last seen. */
  answering: boolean;
  /** The row the focus was given to (a replacement gets it again). */
  focused?: string;
}

export class OpeningFocus {
  private visible = false;
  private opening: Opening | undefined;
  private ownReveals = 0;
  private readonly registeredAt: number;

  constructor(private readonly now: () => number = Date.now) {
    this.registeredAt = now();
  }

  /** An opening is under way: the rows are worth a look when they change. */
  get active(): boolean {
    return this.opening !== undefined;
  }

  /** The view's visibility changed; hidden to visible is a person's opening, unless said above. */
  visibilityChanged(visible: boolean): void {
    const opened = visible && !this.visible && this.ownReveals === 0 && this.now() - this.registeredAt > FIRST_REPORT_MS;
    this.visible = visible;
    this.opening = opened ? { since: this.now(), answering: false } : visible ? this.opening : undefined;
  }

  /** The person did something else (another editor, the window, a selection, a command): the opening is over. */
  interrupted(): void {
    this.opening = undefined;
  }

  /** Runs the extension's own reveal of a row (Find Tool): the view it shows is not a person's opening. */
  async revealing<T>(reveal: () => Thenable<T>): Promise<T> {
    this.ownReveals++;
    try {
      return await reveal();
    } finally {
      this.ownReveals--;
    }
  }

  /** The rows now (`first` undefined: none yet, or the "Reading configuration…" row): the id of the row to focus now, if any. */
  rowsChanged(first: FirstRow | undefined): string | undefined {
    const o = this.opening;
    if (!o) return undefined;
    const now = this.now();
    if (first?.state === 'answering') {
      o.answering = true;
      return undefined;
    }
    if (o.answering) {
      // The person answered (a modal dialog closed): the moment starts again, once.
      o.since = now;
      o.answering = false;
    }
    if (now - o.since > OPENING_MOMENT_MS) {
      this.opening = undefined;
      return undefined;
    }
    if (!first || first.state === 'changing' || first.id === o.focused) return undefined;
    o.focused = first.id;
    return first.id;
  }
}
