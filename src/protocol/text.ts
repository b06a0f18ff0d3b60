// Small text helpers every layer uses for messages, logs and trees. They live at the bottom
// layer so transports, the core and the UI format sizes and cut text the same way.

const KIB = 1024;
const MIB = 1024 * 1024;

/** A measured size for people: `123 B`, `4.2 KiB`, `9.0 MiB`, `1.1 GiB`. */
export function formatBytes(bytes: number): string {
  if (bytes < KIB) return `${bytes} B`;
  const units = ['KiB', 'MiB', 'GiB'];
  let value = bytes / KIB;
  let unit = 0;
  while (value >= KIB && unit < units.length - 1) {
    value /= KIB;
    unit++;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

/** A configured limit the way people write one: `128 MiB`, `64 KiB`, `300 bytes` (whole units only, so never rounded). */
export function formatByteLimit(bytes: number): string {
  if (bytes >= MIB && bytes % MIB === 0) return `${bytes / MIB} MiB`;
  if (bytes >= KIB && bytes % KIB === 0) return `${bytes / KIB} KiB`;
  return `${bytes} bytes`;
}

/** Shortens `text` to at most `max` characters, the last one an ellipsis when cut. */
export function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(0, max - 1))}…`;
}
