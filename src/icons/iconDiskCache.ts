// Accepted icons on disk (the extension's globalStorage): one file per icon named by its source's
// hash, so an https icon is not fetched again after a restart and a tree row has a file to point
// at. The folder is capped: past the cap the least recently written files go. Only bytes that
// passed every check are written; they are checked again when read back.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { readImageHeader, type IconImageType } from './imageHeader';
import { MAX_ICON_BYTES } from './iconSource';

export const ICON_DISK_CACHE_BYTES = 8 * 1024 * 1024;

const EXTENSIONS: Record<IconImageType, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/gif': 'gif', 'image/webp': 'webp' };

export class IconDiskCache {
  constructor(
    readonly folder: string,
    private readonly capBytes = ICON_DISK_CACHE_BYTES,
  ) {}

  /** The bytes kept for `key`, if any and still an image. */
  async read(key: string): Promise<Buffer | undefined> {
    for (const ext of Object.values(EXTENSIONS)) {
      const bytes = await fs.readFile(path.join(this.folder, `${key}.${ext}`)).catch(() => undefined);
      if (bytes && bytes.length <= MAX_ICON_BYTES && readImageHeader(bytes).kind === 'image') return bytes;
    }
    return undefined;
  }

  /** Keeps `bytes` under `key`; the file's path, or undefined when the disk refused. */
  async write(key: string, type: IconImageType, bytes: Buffer): Promise<string | undefined> {
    const file = path.join(this.folder, `${key}.${EXTENSIONS[type]}`);
    try {
      await fs.mkdir(this.folder, { recursive: true });
      await fs.writeFile(file, bytes);
      await this.trim(file);
      return file;
    } catch {
      return undefined;
    }
  }

  /** Deletes the oldest files until the folder is under the cap (never `keep`). */
  private async trim(keep: string): Promise<void> {
    const names = await fs.readdir(this.folder);
    const files = await Promise.all(names.map(async (name) => ({ file: path.join(this.folder, name), stat: await fs.stat(path.join(this.folder, name)).catch(() => undefined) })));
    const present = files.filter((f) => f.stat?.isFile()).sort((a, b) => a.stat!.mtimeMs - b.stat!.mtimeMs);
    let total = present.reduce((sum, f) => sum + f.stat!.size, 0);
    for (const f of present) {
      if (total <= this.capBytes) break;
      if (f.file === keep) continue;
      await fs.rm(f.file, { force: true });
      total -= f.stat!.size;
    }
  }
}
