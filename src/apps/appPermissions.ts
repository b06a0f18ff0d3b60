// The browser permissions an MCP App may ask for (`_meta.ui.permissions`) and the ones it gets:
// only those it declares that the user allows (`mcpHost.apps.permissions`, none by default). They
// become the iframe's `allow` attribute; a permission not granted is simply absent, and the app's
// feature detection sees it missing.

/** The permissions of the specification, by their names in `_meta.ui.permissions`. */
export const APP_PERMISSIONS = ['camera', 'microphone', 'geolocation', 'clipboardWrite'] as const;
export type AppPermission = (typeof APP_PERMISSIONS)[number];

/** Each permission's Permissions-Policy feature (the iframe's `allow`). */
const FEATURE: Record<AppPermission, string> = { camera: 'camera', microphone: 'microphone', geolocation: 'geolocation', clipboardWrite: 'clipboard-write' };

function isAppPermission(name: string): name is AppPermission {
  return (APP_PERMISSIONS as readonly string[]).includes(name);
}

/** The permissions declared (known ones), and the unknown names (for the log). */
export function readAppPermissions(raw: unknown): { readonly declared: readonly AppPermission[]; readonly unknown: readonly string[] } {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { declared: [], unknown: [] };
  const declared: AppPermission[] = [];
  const unknown: string[] = [];
  for (const name of Object.keys(raw).slice(0, 20)) (isAppPermission(name) ? declared : unknown).push(name.slice(0, 60));
  return { declared, unknown };
}

/** The permissions the user allows, from the setting's value (anything malformed allows nothing). */
export function allowedPermissions(setting: unknown): ReadonlySet<AppPermission> {
  return new Set(Array.isArray(setting) ? setting.filter((p): p is AppPermission => typeof p === 'string' && isAppPermission(p)) : []);
}

/** What an app gets: declared ∩ allowed, and the `allow` attribute for its iframe. */
export function grantPermissions(declared: readonly AppPermission[], allowed: ReadonlySet<AppPermission>): { readonly granted: readonly AppPermission[]; readonly denied: readonly AppPermission[]; readonly allow: string } {
  const granted = declared.filter((p) => allowed.has(p));
  return { granted, denied: declared.filter((p) => !allowed.has(p)), allow: granted.map((p) => FEATURE[p]).join('; ') };
}
