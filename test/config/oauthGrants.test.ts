// The `"oauth"` block's grants (src/config/oauthBlock.ts): each grant with the credential it
// needs, secrets only as variables or files (a literal key, token or secret refused without
// being repeated), what the consent shows (where a key comes from, never its value), and the
// variables resolved into the values the grant uses (kept among the values never shown).
import { suite, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseConfigText } from '../../src/config/parse';
import { folderSources } from '../../src/config/sources';
import { oauthGrantFacts } from '../../src/config/oauthBlock';
import { resolveRemoteServer } from '../../src/config/variables';
import type { RemoteServerConfig } from '../../src/config/types';
import { configuredGrant } from '../../src/auth/grants/configuredGrant';
import { consentFactLines } from '../../src/extension/trust/consentText';

const [MCP_JSON] = folderSources({ name: 'w', fsPath: '/w' });
const PEM = '-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgSECRETKEYBODY\n-----END PRIVATE KEY-----';
const JWT = 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJqb2IifQ.c2lnbmF0dXJlLXNlY3JldA';

function parse(servers: Record<string, unknown>, inputs: unknown[] = []) {
  const loaded = parseConfigText(JSON.stringify({ inputs, servers }), MCP_JSON);
  return { loaded, messages: loaded.problems.map((p) => `${p.severity} ${p.path}: ${p.message}`) };
}

suite('config: the grants of an "oauth" block', () => {
  test('each grant with its credential as a variable or a file is read as written', () => {
    const { loaded, messages } = parse(
      {
        cc: { type: 'http', url: 'https://a/mcp', oauth: { grant: 'client_credentials', clientId: 'bot', privateKey: '${env:MCP_KEY}', signingAlgorithm: 'ES256', dpop: 'required' } },
        ccFile: { type: 'http', url: 'https://a/mcp', oauth: { grant: 'client_credentials', clientId: 'bot', privateKeyFile: '~/keys/bot.pem' } },
        ccSecret: { type: 'http', url: 'https://a/mcp', oauth: { grant: 'client_credentials', clientId: 'bot', clientSecret: '${input:s}' } },
        wif: { type: 'http', url: 'https://a/mcp', oauth: { grant: 'workload_identity', workloadTokenFile: '/var/run/secrets/tokens/mcp' } },
        ema: { type: 'http', url: 'https://a/mcp', oauth: { grant: 'enterprise_managed', clientId: 'app', clientSecret: '${input:s}', idp: { issuer: 'https://idp.example', tokenEndpoint: 'https://idp.example/token', clientId: 'idp-app' }, idToken: '${env:ID_TOKEN}' } },
      },
      [{ id: 's', type: 'promptString', password: true }],
    );
    assert.deepEqual(messages, []);
    const oauth = Object.fromEntries(loaded.servers.map((s) => [s.name, (s.config as RemoteServerConfig).oauth]));
    assert.deepEqual(oauth.cc, { clientId: 'bot', grant: 'client_credentials', privateKey: '${env:MCP_KEY}', signingAlgorithm: 'ES256', dpop: 'required' });
    assert.deepEqual(oauth.ccFile, { clientId: 'bot', grant: 'client_credentials', privateKeyFile: '~/keys/bot.pem' });
    assert.deepEqual(oauth.wif, { clientId: '', grant: 'workload_identity', workloadTokenFile: '/var/run/secrets/tokens/mcp' });
    assert.deepEqual(oauth.ema?.idp, { issuer: 'https://idp.example', tokenEndpoint: 'https://idp.example/token', clientId: 'idp-app' });
  });

  test('a literal key, token or secret is refused without being repeated; a grant without its credential, or with two, is an error', () => {
    const { loaded, messages } = parse(
      {
        literalKey: { url: 'https://a/mcp', oauth: { grant: 'client_credentials', clientId: 'bot', privateKey: PEM } },
        keyInFileField: { url: 'https://a/mcp', oauth: { grant: 'client_credentials', clientId: 'bot', privateKeyFile: PEM } },
        literalToken: { url: 'https://a/mcp', oauth: { grant: 'workload_identity', workloadToken: JWT } },
        tokenInFileField: { url: 'https://a/mcp', oauth: { grant: 'workload_identity', workloadTokenFile: JWT } },
        relative: { url: 'https://a/mcp', oauth: { grant: 'workload_identity', workloadTokenFile: 'token.jwt' } },
        literalIdp: { url: 'https://a/mcp', oauth: { grant: 'enterprise_managed', clientId: 'a', idp: { issuer: 'https://i', tokenEndpoint: 'https://i/t', clientId: 'c', clientSecret: 'idp-s3cret' }, idToken: '${env:T}' } },
        plainInput: { url: 'https://a/mcp', oauth: { grant: 'client_credentials', clientId: 'bot', privateKey: '${input:plain}' } },
        noCredential: { url: 'https://a/mcp', oauth: { grant: 'client_credentials', clientId: 'bot' } },
        twoCredentials: { url: 'https://a/mcp', oauth: { grant: 'client_credentials', clientId: 'bot', clientSecret: '${env:S}', privateKeyFile: '/k.pem' } },
        noIdp: { url: 'https://a/mcp', oauth: { grant: 'enterprise_managed', clientId: 'a', idToken: '${env:T}' } },
        unknownGrant: { url: 'https://a/mcp', oauth: { grant: 'password', clientId: 'a' } },
        wrongGrantKey: { url: 'https://a/mcp', oauth: { clientId: 'a', workloadTokenFile: '/t' } },
        badDpop: { url: 'https://a/mcp', oauth: { clientId: 'a', dpop: 'yes' } },
      },
      [{ id: 'plain', type: 'promptString' }],
    );
    assert.deepEqual(loaded.servers.map((s) => s.name), [], 'every entry is dropped');
    const has = (start: string, text: string) => assert.ok(messages.some((m) => m.startsWith(`error servers.${start}`) && m.includes(text)), `${start} / ${text}:\n${messages.join('\n')}`);
    has('literalKey.oauth.privateKey', 'not the secret itself');
    has('keyInFileField.oauth.privateKeyFile', 'not the key or token itself');
    has('literalToken.oauth.workloadToken', 'not the secret itself');
    has('tokenInFileField.oauth.workloadTokenFile', 'not the key or token itself');
    has('relative.oauth.workloadTokenFile', 'must be an absolute path');
    has('literalIdp.oauth.idp.clientSecret', 'not the secret itself');
    has('plainInput.oauth.privateKey', '"password": true');
    has('noCredential.oauth', 'needs exactly one of "clientSecret", "privateKey"');
    has('twoCredentials.oauth', 'needs exactly one of');
    has('noIdp.oauth', 'needs "idp"');
    has('unknownGrant.oauth.grant', 'must be one of authorization_code, client_credentials');
    has('wrongGrantKey.oauth.workloadTokenFile', 'belongs to another grant');
    has('badDpop.oauth.dpop', 'must be one of auto, off, required');
    const all = messages.join('\n');
    for (const secret of ['SECRETKEYBODY', 'c2lnbmF0dXJlLXNlY3JldA', 'idp-s3cret']) assert.ok(!all.includes(secret), `a message repeats a secret (${secret})`);
  });

  test('the consent names the grant and where its key or token comes from, never a value', () => {
    const lines = consentFactLines({ name: 'api', sourceLabel: 'mcp.json', type: 'http', url: 'https://a/mcp', headers: [], oauth: { clientId: 'bot', grant: oauthGrantFacts({ clientId: 'bot', grant: 'client_credentials', privateKey: '${env:MCP_KEY}', dpop: 'required' }) } });
    const text = lines.join('\n');
    assert.match(text, /Grant: client credentials, no browser \(private_key_jwt: a JWT signed by the private key from \$\{env:MCP_KEY\}\)/);
    assert.match(text, /DPoP: required/);
    assert.match(oauthGrantFacts({ clientId: '', grant: 'workload_identity', workloadTokenFile: '/var/run/t' }).join('\n'), /workload token from the file \/var\/run\/t/);
    assert.deepEqual(oauthGrantFacts({ clientId: 'a' }), [], 'the browser sign-in adds nothing');
    // Enterprise-managed without an ID token configured: MCP Host signs in to the IdP, and the consent says so.
    const idp = { issuer: 'https://idp.example', tokenEndpoint: 'https://idp.example/token', clientId: 'idp-app' };
    const { messages } = parse({ ema: { type: 'http', url: 'https://a/mcp', oauth: { grant: 'enterprise_managed', clientId: 'app', idp } } });
    assert.deepEqual(messages, []);
    assert.match(oauthGrantFacts({ clientId: 'app', grant: 'enterprise_managed', idp }).join('\n'), /you sign in to the identity provider https:\/\/idp\.example in the browser, once while its ID token lasts/);
  });

  test('resolved: the key from the environment is among the values never shown; a key file is read at the token request, its content told to the redactor', async () => {
    const resolved = await resolveRemoteServer({ type: 'http', url: 'https://a/mcp', oauth: { clientId: 'bot', grant: 'client_credentials', privateKey: '${env:MCP_KEY}' } }, { env: { MCP_KEY: PEM }, folders: {}, userHome: '/home/u', resolveInput: async () => '' } as never);
    assert.equal(resolved.oauth?.privateKey, PEM);
    assert.ok(resolved.secretValues.includes(PEM), 'the key is a secret value');

    const dir = mkdtempSync(join(tmpdir(), 'mcp-host-grant-'));
    try {
      const file = join(dir, 'token');
      writeFileSync(file, `${JWT}\n`);
      const noted: string[] = [];
      const grant = configuredGrant({ clientId: '', grant: 'workload_identity', workloadTokenFile: file }, { noteSecret: (...v) => noted.push(...v) });
      assert.deepEqual(await grant!(), { kind: 'workload-identity', assertion: JWT });
      assert.ok(noted.includes(JWT), 'the token read was told to the redactor');
      // Rotated by the platform: the next request reads the new token.
      writeFileSync(file, 'eyJuZXcifQ.eyJuZXcifQ.bmV3');
      assert.equal(((await grant!()) as { assertion: string }).assertion, 'eyJuZXcifQ.eyJuZXcifQ.bmV3');
      const missing = configuredGrant({ clientId: 'a', grant: 'client_credentials', privateKeyFile: join(dir, 'absent.pem') });
      await assert.rejects(missing!(), /the private key could not be read from .*absent\.pem \(ENOENT\)/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
