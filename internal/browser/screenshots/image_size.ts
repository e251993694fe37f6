/**
 * The size in pixels of a PNG or JPEG image, read from its header: what a picture's geometry
 * measures its scale with, whatever the device's pixel ratio.
 *
 * @example
 * ```ts
 * imageSize(bytes); // { width: 1280, height: 800 }
 * ```
 */
export function imageSize(bytes: Uint8Array): { width: number; height: number } | undefined {
  const at = (i: number) => bytes[i] ?? 0;
  const word = (i: number) => (at(i) << 8) | at(i + 1);
  // PNG: the signature, then the IHDR chunk's width and height (4 bytes each, big-endian).
  if (at(0) === 0x89 && at(1) === 0x50 && at(2) === 0x4e && at(3) === 0x47) {
    const long = (i: number) => ((word(i) << 16) | word(i + 2)) >>> 0;
    return { width: long(16), height: long(20) };
  }
  // JPEG: markers from the start; a start-of-frame one (C0–CF but C4, C8, CC) holds the size.
  if (at(0) !== 0xff || at(1) !== 0xd8) return undefined;
  for (let i = 2; i + 9 < bytes.length;) {
    if (at(i) !== 0xff) return undefined;
    const marker = at(i + 1);
    if (marker === 0xff) {
      i++;
      continue;
    }
    if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker)) {
      return { width: word(i + 7), height: word(i + 5) };
    }
    i += 2 + word(i + 2);
  }
  return undefined;
}
