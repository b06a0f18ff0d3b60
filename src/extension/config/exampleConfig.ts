// The file "MCP Host: Create .vscode/mcp.json" writes. Pure, so a test can check that the
// config layer loads it without problems.

/** An example `.vscode/mcp.json`: the MCP reference server, run with npx. */
export const EXAMPLE_MCP_JSON = `{
  // MCP servers for this workspace. MCP Host starts them over stdio and shows them in its view.
  // Variables: \${workspaceFolder}, \${userHome}, \${env:NAME}, and \${input:id} for values asked once
  // (declare them in "inputs"; passwords are kept in VS Code's secret storage).
  "servers": {
    "everything": {
      "type": "stdio",
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-everything", "stdio"]
    }
  },
  "inputs": []
}
`;
