// The gallery's rows: what the quick pick shows of a server, of a failure, and of the ways to install.
import { before, suite, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { ServerResponse } from '../../src/gallery/serverJson';
import { RegistryError } from '../../src/gallery/registryClient';
import { choiceRows, failureRow, serverRow } from '../../src/gallery/galleryRows';
import { RegistryDocuments, registryDocuments } from './registryFixture';

let docs: RegistryDocuments;
before(async () => {
  docs = await registryDocuments();
});

const entry = (name: string, meta?: Record<string, unknown>): ServerResponse => ServerResponse.parse({ server: [...docs.REAL, ...docs.UNSAFE].find((d) => d.name === name), ...(meta ? { _meta: meta } : {}) });

suite('gallery: quick pick rows', () => {
  test('a server: title, version and package types, then name, description and repository', () => {
    assert.deepEqual(serverRow(entry('io.github.modelcontextprotocol/filesystem')), {
      label: 'Filesystem',
      description: '1.0.2 · npm, oci',
      detail: 'io.github.modelcontextprotocol/filesystem — Node.js server implementing Model Context Protocol (MCP) for filesystem operations. — https://github.com/modelcontextprotocol/servers',
      serverName: 'io.github.modelcontextprotocol/filesystem',
    });
    const deprecated = serverRow(entry('io.modelcontextprotocol.anonymous/embedded-mcp', { 'io.modelcontextprotocol.registry/official': { status: 'deprecated' } }));
    assert.equal(deprecated.label, 'embedded-mcp');
    assert.equal(deprecated.description, '0.1.0 · nothing to install · deprecated');
  });

  test('a failure: not reachable, or a token to set', () => {
    assert.equal(failureRow(new RegistryError('unreachable', 'registry not reachable at https://r.example: HTTP 503')).label, 'Registry not reachable');
    const auth = failureRow(new RegistryError('unauthorized', 'registry https://r.example answered 401: it needs a token (a private registry)'));
    assert.equal(auth.offerToken, true);
    assert.match(auth.detail, /pick this row to set the token$/);
  });

  test('the ways to install: the command each writes, or why it is refused', () => {
    const rows = choiceRows(entry('io.modelcontextprotocol.anonymous/hybrid-mcp'), 'inputs');
    assert.deepEqual(rows.map((r) => [r.label, r.detail]), [
      ['npm @example/hybrid-mcp-server@1.5.0', 'npx -y @example/hybrid-mcp-server@1.5.0'],
      ['remote streamable-http https://mcp.anonymous.modelcontextprotocol.io/http', 'http https://mcp.anonymous.modelcontextprotocol.io/http'],
      ['remote sse https://mcp.anonymous.modelcontextprotocol.io/sse', 'sse https://mcp.anonymous.modelcontextprotocol.io/sse'],
    ]);
    const refused = choiceRows(entry('com.example.unsafe/credentials-in-url'), 'inputs');
    assert.equal(refused[0].refused, true);
    assert.match(refused[0].detail, /^Refused: the URL holds credentials/);
  });
});
