// The URL of a client id metadata document (MCP authorization 2025-11-25, "Client ID Metadata
// Documents"): the client id is that URL, and the authorization server fetches the document from
// it. The user (or their organisation) hosts the document; MCP Host uses it, where the server's
// authorization server supports such documents, instead of registering itself dynamically.
// Checked where a user gives one: the mcpHost.oauth.clientMetadataUrl setting and the CLI's
// --client-metadata-url.

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** Why `text` cannot be a client id metadata document URL, or undefined when it can be one. */
export function clientMetadataUrlProblem(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'is not a URL';
  }
  // https, as the specification requires; plain http only for a document served on this machine.
  const loopback = url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname);
  if (url.protocol !== 'https:' && !loopback) return 'must be an https URL';
  if (url.pathname === '/') return 'must have a path (for example https://example.com/mcp-host/client.json)';
  if (/\/\.\.?(?:[/?#]|$)/.test(text.replace(/^[a-z]+:\/\/[^/]*/i, ''))) return 'must not contain "." or ".." path segments';
  if (url.hash || text.includes('#')) return 'must not have a fragment';
  if (url.username || url.password) return 'must not carry a user name or password';
  return undefined;
}
