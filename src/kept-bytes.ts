/**
 * The UTF-8 bytes of a text that will be kept (a cached answer written again on every repeat), in a
 * buffer of their own. `Buffer.from` puts a small text in a slice of Node's shared 8 KiB pool, and a kept
 * slice keeps its whole slab, with the short-lived buffers written around it, for as long as it is kept
 * (BENCHMARKS.md, soak of 2026-11-26, 11:23-11:58 UTC).
 */
export function keptUtf8(text: string): Buffer {
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
  bytes.write(text);
  return bytes;
}
