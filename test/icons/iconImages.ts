// The fixture's image builder (test/fixtures/servers/iconImages.mjs), typed for the tests.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

export interface IconImages {
  png(width: number, height: number, rgb: readonly number[]): Buffer;
  pngClaiming(width: number, height: number): Buffer;
  dataUri(type: string, bytes: Buffer | string): string;
  readonly SCRIPTED_SVG: string;
}
/** The fixture's image builder (test/fixtures/servers/iconImages.mjs). */
export const iconImages = (): Promise<IconImages> => import(pathToFileURL(resolve(__dirname, '..', '..', '..', 'test', 'fixtures', 'servers', 'iconImages.mjs')).href) as Promise<IconImages>;
