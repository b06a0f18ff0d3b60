// The registry fixture (test/fixtures/registry) and its documents, loaded for node:test files.
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The repository root (this file runs from out/test/gallery/). */
const ROOT = resolve(__dirname, '..', '..', '..');
const FIXTURES = join(ROOT, 'test', 'fixtures', 'registry');

export interface RegistryFixture {
  readonly url: string;
  readonly token: string;
  readonly requests: { prefix: string; path: string; authorized: boolean; authorization?: string }[];
  /** The loopback port the /icons registry's hostile entry names (its connections counted), and the bytes of the huge PNG sent. */
  readonly iconTrap: { readonly port: number; readonly connections: number; readonly sent: { readonly huge: number } };
  close(): Promise<void>;
}

export interface RegistryDocuments {
  readonly REAL: Record<string, unknown>[];
  readonly UNSAFE: Record<string, unknown>[];
  readonly MALFORMED: Record<string, unknown>[];
  readonly TEMPLATED: Record<string, unknown>;
}

/** `authorizationServer`: the base URL of the authorization server that protects the fixture's /oauth registry. */
export async function startRegistryFixture(options: { authorizationServer?: string } = {}): Promise<RegistryFixture> {
  const module = (await import(pathToFileURL(join(FIXTURES, 'registryServer.mjs')).href)) as { startRegistryFixture(options: { authorizationServer?: string }): Promise<RegistryFixture> };
  return module.startRegistryFixture(options);
}

export async function registryDocuments(): Promise<RegistryDocuments> {
  return (await import(pathToFileURL(join(FIXTURES, 'documents.mjs')).href)) as RegistryDocuments;
}
