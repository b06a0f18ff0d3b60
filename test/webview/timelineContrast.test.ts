// The timeline's canvas colours reach 3:1 for shapes and 4.5:1 for text in the four themes the
// audit used: the page's own colour code (media/webview/timelineAccess.js), run as the page runs it,
// on the theme values VS Code 1.139 (code-server 4.139.1) gives a webview. Light+ gives
// charts.orange as rgba(234, 92, 0, 0.33): cancelled spans were 1.5:1 on its white.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { runInNewContext } from 'node:vm';

interface Access {
  contrast(fg: string, bg: string): number;
  readable(color: string, bg: string, min: number): string;
  textOn(color: string): string;
}

const source = readFileSync(join(__dirname, '..', '..', '..', 'media', 'webview', 'timelineAccess.js'), 'utf8');
const access = runInNewContext(`${source}\nMcpTimelineAccess`, {}) as Access;

/** The variables the timeline reads, as each theme gives them (undefined: the page's fallback). */
const THEMES: Record<string, { bg: string; muted: string; fg: string; charts: Record<string, string | undefined> }> = {
  'Light 2026': { bg: '#ffffff', muted: '#606060', fg: '#202020', charts: { blue: '#1a5cff', red: '#ad0707', orange: '#d18616', purple: '#652d90', yellow: '#667309', green: '#388a34' } },
  'Light+': { bg: '#ffffff', muted: '#717171', fg: '#616161', charts: { blue: '#0063d3', red: '#e51400', orange: 'rgba(234, 92, 0, 0.33)', purple: '#652d90', yellow: '#bf8803', green: '#388a34' } },
  'High Contrast Dark': { bg: '#000000', muted: 'rgba(255, 255, 255, 0.7)', fg: '#ffffff', charts: { blue: '#59a4f9', red: '#f48771', orange: undefined, purple: '#b180d7', yellow: '#ffd370', green: '#89d185' } },
  'High Contrast Light': { bg: '#ffffff', muted: 'rgba(41, 41, 41, 0.7)', fg: '#292929', charts: { blue: '#0063d3', red: '#b5200d', orange: undefined, purple: '#652d90', yellow: '#895503', green: '#374e06' } },
};
/** The page's fallbacks (timeline.js readColors) for a variable a theme leaves out. */
const FALLBACK: Record<string, string> = { orange: '#d18616' };

describe('timeline colours in the four themes', () => {
  test('before: the cancelled orange of Light+ is far below 3:1 as the theme gives it', () => {
    assert.ok(access.contrast('rgba(234, 92, 0, 0.33)', '#ffffff') < 1.6);
  });

  for (const [name, theme] of Object.entries(THEMES)) {
    test(`${name}: every span colour 3:1 on the background, muted and body text 4.5:1, span labels 4.5:1 on their span`, () => {
      for (const [chart, value] of Object.entries(theme.charts)) {
        const color = access.readable(value ?? FALLBACK[chart], theme.bg, 3);
        const ratio = access.contrast(color, theme.bg);
        assert.ok(ratio >= 3, `${chart} ${value} → ${color}: ${ratio.toFixed(2)}:1`);
        const label = access.textOn(color);
        assert.ok(access.contrast(label, color) >= 4.5, `label ${label} on ${color}`);
        // A colour that already reads is the theme's own, untouched.
        if (value && /^#/.test(value) && access.contrast(value, theme.bg) >= 3) assert.equal(color, value);
      }
      for (const text of [theme.muted, theme.fg]) assert.ok(access.contrast(access.readable(text, theme.bg, 4.5), theme.bg) >= 4.5, text);
    });
  }
});
