// Which MCP Registry entry an installed server came from, kept in the entry itself with the two
// fields VS Code's own mcp.json already has for servers installed from a gallery: `"gallery"` (a
// string: here the URL of the server in the registry, `<registry>/v0.1/servers/<name>`, so the
// registry and the name survive any editor, copy or sync) and `"version"` (the version installed).
// The gallery (src/gallery) writes them; the config reader hands them on, for update checks.

/** The registry entry an installed server came from. */
export interface RegistrySource {
  /** The registry's base URL (before `/v0.1`). */
  readonly registryUrl: string;
  /** The server's registry name, `namespace/name`. */
  readonly name: string;
  /** The version installed. */
  readonly version: string;
}

const SERVER_PATH = /^(.*)\/v0\.1\/servers\/([^/?#]+)$/;

/** The fields an installed entry gets: `{ gallery, version }`. */
export function registrySourceFields(source: RegistrySource): { gallery: string; version: string } {
  return { gallery: `${source.registryUrl.replace(/\/+$/, '')}/v0.1/servers/${encodeURIComponent(source.name)}`, version: source.version };
}

/** The registry source recorded in a raw entry (its `gallery` URL and `version`), if it has one. */
export function registrySourceOf(raw: unknown): RegistrySource | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const { gallery, version } = raw as { gallery?: unknown; version?: unknown };
  if (typeof gallery !== 'string' || typeof version !== 'string' || !version) return undefined;
  const match = SERVER_PATH.exec(gallery);
  if (!match || !/^https?:\/\//.test(match[1])) return undefined;
  let name: string;
  try {
    name = decodeURIComponent(match[2]);
  } catch {
    return undefined;
  }
  return name.includes('/') ? { registryUrl: match[1], name, version } : undefined;
}
