// The colours of the timeline's canvas (timelineCanvas.js): read from the theme's CSS variables,
// with fallbacks for a theme that leaves one out, and held to a readable contrast
// (timelineAccess.js). Read again when the theme changes; label colours are remembered per colour.
// @ts-check

'use strict';
/* global McpTimelineAccess */
// A block, not a function: what it declares stays private; its one `var` is the script's global.
{
  /**
   * A canvas's colours (empty until `read()`), the colour of a call's status, and the text colour
   * that reads on a colour. `statuses` are the names of the store's statuses, by number.
   * @param {readonly string[]} statuses
   */
  function create(statuses) {
    const colors = /** @type {Record<string, string>} */ ({});
    /** @type {Map<string, string>} */
    const textOnCache = new Map();
    return {
      colors,
      read: () => {
        textOnCache.clear();
        readColors(colors);
      },
      /** Black or white, whichever reads better on `color`; remembered per color. */
      textOn: (/** @type {string} */ color) => {
        let text = textOnCache.get(color);
        if (text === undefined) textOnCache.set(color, (text = McpTimelineAccess.textOn(color)));
        return text;
      },
      statusColor: (/** @type {number} */ status) => statusColor(colors, statuses[status]),
    };
  }

  /** @param {Record<string, string>} colors */
  function readColors(colors) {
    const css = getComputedStyle(document.body);
    const v = (/** @type {string} */ name, /** @type {string} */ fallback) => css.getPropertyValue(name).trim() || fallback;
    const dark = document.body.classList.contains('vscode-dark') || document.body.classList.contains('vscode-high-contrast');
    colors.bg = v('--vscode-editor-background', dark ? '#1e1e1e' : '#ffffff');
    colors.fg = v('--vscode-foreground', dark ? '#cccccc' : '#3b3b3b');
    colors.muted = v('--vscode-descriptionForeground', dark ? '#9d9d9d' : '#717171');
    colors.grid = v('--vscode-editorIndentGuide-background1', v('--vscode-editorIndentGuide-background', dark ? '#404040' : '#d3d3d3'));
    colors.border = v('--vscode-panel-border', dark ? '#2b2b2b' : '#e5e5e5');
    colors.band = v('--vscode-editor-lineHighlightBackground', dark ? '#ffffff0a' : '#0000000a');
    colors.ok = v('--vscode-charts-blue', dark ? '#3794ff' : '#1a85ff');
    colors.error = v('--vscode-charts-red', v('--vscode-errorForeground', '#f14c4c'));
    colors.cancelled = v('--vscode-charts-orange', '#d18616');
    colors.input = v('--vscode-charts-purple', '#b180d7');
    colors.task = v('--vscode-charts-yellow', '#cca700');
    colors.serverCall = v('--vscode-charts-purple', '#b180d7');
    colors.received = v('--vscode-charts-green', '#388a34');
    colors.focus = v('--vscode-focusBorder', '#007fd4');
    colors.range = v('--vscode-editor-selectionBackground', dark ? '#264f78' : '#add6ff');
    // Shapes reach 3:1 against the background and text 4.5:1, in every theme (a theme's chart
    // orange is 1.5:1 on Light+'s white): a colour short of it is moved towards black or white.
    McpTimelineAccess.readableShapes(colors, ['ok', 'error', 'cancelled', 'input', 'task', 'serverCall', 'received']);
    colors.muted = McpTimelineAccess.readable(colors.muted, colors.bg, 4.5);
    colors.fg = McpTimelineAccess.readable(colors.fg, colors.bg, 4.5);
    colors.font = v('--vscode-font-family', 'sans-serif');
    colors.mono = v('--vscode-editor-font-family', 'monospace');
  }

  function statusColor(/** @type {Record<string, string>} */ colors, /** @type {string | undefined} */ status) {
    switch (status) {
      case 'error':
        return colors.error;
      case 'cancelled':
        return colors.cancelled;
      case 'input':
        return colors.input;
      case 'task':
        return colors.task;
      case 'unanswered':
        return colors.muted;
      default:
        return colors.ok;
    }
  }

  // eslint-disable-next-line no-unused-vars
  var McpTimelineTheme = { create };
}
