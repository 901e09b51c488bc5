/**
 * The snapshot converter process (started by snapshot-convert.ts): sharp (libvips) narrows a stored page
 * image or turns it into PNG, one request at a time, and answers over the IPC channel. Its allocator
 * settings come from the parent's environment for it: libvips' memory lives and is returned here, not in
 * the server. It exits when the parent disconnects.
 */
import sharp from 'sharp';
import type { ConvertReply, ConvertRequest } from './snapshot-convert.js';

// Each converted image is cached by the server; libvips' own operation cache would hold the same pixels
// again, and one thread per conversion keeps its memory to one page's worth.
sharp.cache(false);
sharp.concurrency(1);

let queue: Promise<void> = Promise.resolve();

async function convert(m: ConvertRequest): Promise<ConvertReply> {
  try {
    let img = sharp(m.webp);
    if (m.width !== undefined) img = img.resize({ width: m.width, withoutEnlargement: true });
    img = m.format === 'png' ? img.png({ compressionLevel: 6 }) : img.webp({ quality: 80 });
    const out = await img.toBuffer({ resolveWithObject: true });
    return { id: m.id, data: out.data, width: out.info.width, height: out.info.height };
  } catch (err) {
    return { id: m.id, error: (err as Error).message };
  }
}

process.on('message', (m: ConvertRequest) => {
  queue = queue.then(async () => {
    process.send?.(await convert(m));
  });
});
process.on('disconnect', () => process.exit(0));
