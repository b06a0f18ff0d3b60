// A tiny NDJSON MCP server for the end-to-end tests (test/e2e/extension.test.ts), with the one
// misbehaviour each test needs. Usage: node tiny.mjs [options]
//   --name NAME           serverInfo.name (default "tiny")
//   --touch FILE          creates FILE on start: evidence that the process was spawned at all
//   --print-env VAR       writes "VAR is <value>" to stderr on start (a server leaking a secret)
//   --exit-after-init     writes "tiny: crashing on purpose" to stderr and exits with code 3
//                         right after notifications/initialized
// Tools: `hello`. It runs until stdin ends.
import { writeFileSync } from 'node:fs';

const args = process.argv.slice(2);
const opt = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const name = opt('--name') ?? 'tiny';
const touch = opt('--touch');
const printEnv = opt('--print-env');
if (touch) writeFileSync(touch, String(process.pid));
if (printEnv) process.stderr.write(`${printEnv} is ${process.env[printEnv] ?? '(unset)'}\n`);

const write = (m) => process.stdout.write(JSON.stringify(m) + '\n');
let buffer = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  buffer += chunk;
  let nl;
  while ((nl = buffer.indexOf('\n')) >= 0) {
    const line = buffer.slice(0, nl).trim();
    buffer = buffer.slice(nl + 1);
    if (line) handle(JSON.parse(line));
  }
});
process.stdin.on('end', () => process.exit(0));

function handle(m) {
  if (m.method === 'initialize') {
    write({ jsonrpc: '2.0', id: m.id, result: { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name, version: '1.0.0' } } });
  } else if (m.method === 'notifications/initialized') {
    if (args.includes('--exit-after-init')) process.stderr.write('tiny: crashing on purpose\n', () => process.exit(3));
  } else if (m.method === 'tools/list') {
    write({ jsonrpc: '2.0', id: m.id, result: { tools: [{ name: 'hello', description: 'Says hello.', inputSchema: { type: 'object' } }] } });
  } else if (m.method === 'tools/call') {
    write({ jsonrpc: '2.0', id: m.id, result: { content: [{ type: 'text', text: `hello from ${name}` }] } });
  } else if (m.method === 'ping') {
    write({ jsonrpc: '2.0', id: m.id, result: {} });
  } else if (m.id !== undefined && m.method !== undefined) {
    write({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: `no such method ${m.method}` } });
  }
}
