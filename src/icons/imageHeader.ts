// What an icon's bytes really are: the format from its magic bytes and its pixel size from its
// header, read without decoding the image. A server's icon is untrusted: a file that claims to be
// a PNG but is something else, or a 40000×40000 image that would take gigabytes to decode, is
// refused before anything draws it. SVG is not read here: it is refused (it can carry script).

/** The raster formats an icon may have. */
export type IconImageType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';

export const ICON_IMAGE_TYPES: readonly IconImageType[] = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];

/** The widest and tallest icon drawn, in pixels. */
export const MAX_ICON_DIMENSION = 1024;

export type ImageHeader =
  | { readonly kind: 'image'; readonly type: IconImageType; readonly width: number; readonly height: number }
  | { readonly kind: 'refused'; readonly reason: string };

/** True for a MIME type an icon may declare (parameters and case ignored). */
export function isIconImageType(type: string): type is IconImageType {
  return (ICON_IMAGE_TYPES as readonly string[]).includes(type);
}

/** The MIME type without parameters, lower case ("image/PNG; x=y" → "image/png"). */
export function bareMimeType(type: string): string {
  return type.split(';')[0].trim().toLowerCase();
}

function startsWith(bytes: Uint8Array, prefix: readonly number[], at = 0): boolean {
  return bytes.length >= at + prefix.length && prefix.every((b, i) => bytes[at + i] === b);
}

function ascii(bytes: Uint8Array, at: number, length: number): string {
  return Buffer.from(bytes.subarray(at, at + length)).toString('latin1');
}

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** The format and size of `bytes`, from the header; `refused` when the bytes are no icon we draw. */
export function readImageHeader(bytes: Uint8Array): ImageHeader {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (startsWith(bytes, PNG)) {
    // The first chunk must be IHDR: width and height as big-endian 32-bit numbers.
    if (bytes.length < 24 || ascii(bytes, 12, 4) !== 'IHDR') return { kind: 'refused', reason: 'a PNG without its IHDR header' };
    return sized('image/png', view.getUint32(16), view.getUint32(20));
  }
  if (ascii(bytes, 0, 6) === 'GIF87a' || ascii(bytes, 0, 6) === 'GIF89a') {
    if (bytes.length < 10) return { kind: 'refused', reason: 'a GIF cut short' };
    return sized('image/gif', view.getUint16(6, true), view.getUint16(8, true));
  }
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WEBP') return webp(bytes, view);
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return jpeg(bytes, view);
  if (/^\s*(<\?xml|<svg|<!DOCTYPE svg)/i.test(ascii(bytes, 0, 64))) return { kind: 'refused', reason: 'SVG is not shown (it can carry script)' };
  return { kind: 'refused', reason: 'not a PNG, JPEG, GIF or WebP image (its first bytes say so)' };
}

function sized(type: IconImageType, width: number, height: number): ImageHeader {
  if (width === 0 || height === 0) return { kind: 'refused', reason: `a ${type} of ${width}×${height} pixels` };
  if (width > MAX_ICON_DIMENSION || height > MAX_ICON_DIMENSION) return { kind: 'refused', reason: `${width}×${height} pixels is larger than ${MAX_ICON_DIMENSION}×${MAX_ICON_DIMENSION}` };
  return { kind: 'image', type, width, height };
}

function webp(bytes: Uint8Array, view: DataView): ImageHeader {
  const chunk = ascii(bytes, 12, 4);
  if (chunk === 'VP8 ' && bytes.length >= 30) return sized('image/webp', view.getUint16(26, true) & 0x3fff, view.getUint16(28, true) & 0x3fff);
  if (chunk === 'VP8L' && bytes.length >= 25 && bytes[20] === 0x2f) {
    const bits = view.getUint32(21, true);
    return sized('image/webp', (bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1);
  }
  if (chunk === 'VP8X' && bytes.length >= 30) {
    const w = bytes[24] | (bytes[25] << 8) | (bytes[26] << 16);
    const h = bytes[27] | (bytes[28] << 8) | (bytes[29] << 16);
    return sized('image/webp', w + 1, h + 1);
  }
  return { kind: 'refused', reason: 'a WebP without a header we can read' };
}

/** JPEG: walk the segments to the first start-of-frame (SOF0–SOF15 but DHT, JPG and DAC). */
function jpeg(bytes: Uint8Array, view: DataView): ImageHeader {
  let at = 2;
  while (at + 9 <= bytes.length) {
    if (bytes[at] !== 0xff) return { kind: 'refused', reason: 'a JPEG whose segments do not parse' };
    const marker = bytes[at + 1];
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    const length = view.getUint16(at + 2);
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) return sized('image/jpeg', view.getUint16(at + 7), view.getUint16(at + 5));
    if (marker === 0xd9 || marker === 0xda || length < 2) break;
    at += 2 + length;
  }
  return { kind: 'refused', reason: 'a JPEG without a frame header' };
}
