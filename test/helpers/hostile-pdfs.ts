import zlib from 'node:zlib';

/**
 * Hostile PDFs, written object by object at test time so that nothing large is kept on disk: a
 * decompression bomb, a page tree that loops, arrays nested 200,000 deep and a PDF of 5,000 empty pages.
 * pdfkit cannot write any of them (it writes only sound files), hence this small writer.
 */
function pdf(objects: (string | Buffer)[], root = 1): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let offset = parts[0]!.length;
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(offset);
    const chunk = Buffer.concat([
      Buffer.from(`${i + 1} 0 obj\n`, 'latin1'),
      typeof body === 'string' ? Buffer.from(body, 'latin1') : body,
      Buffer.from('\nendobj\n', 'latin1'),
    ]);
    parts.push(chunk);
    offset += chunk.length;
  });
  const xref = [
    'xref',
    `0 ${objects.length + 1}`,
    '0000000000 65535 f ',
    ...offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n `),
    'trailer',
    `<< /Size ${objects.length + 1} /Root ${root} 0 R >>`,
    'startxref',
    String(offset),
    '%%EOF',
    '',
  ].join('\n');
  parts.push(Buffer.from(xref, 'latin1'));
  return Buffer.concat(parts);
}

function stream(dict: string, data: Buffer): Buffer {
  return Buffer.concat([
    Buffer.from(`<< ${dict} /Length ${data.length} >>\nstream\n`, 'latin1'),
    data,
    Buffer.from('\nendstream', 'latin1'),
  ]);
}

const FONT = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>';
const PAGE = (parent: number, contents: number, font: number) =>
  `<< /Type /Page /Parent ${parent} 0 R /MediaBox [0 0 595 842] /Contents ${contents} 0 R /Resources << /Font << /F1 ${font} 0 R >> >> >>`;

/** One page whose content stream is `decodedBytes` of spaces, Flate-compressed to a few hundred KB per GiB. */
export async function flateBombPdf(decodedBytes: number): Promise<Buffer> {
  const deflate = zlib.createDeflate({ level: 9 });
  const out: Buffer[] = [];
  deflate.on('data', (c: Buffer) => out.push(c));
  const done = new Promise<void>((resolve, reject) => {
    deflate.on('end', resolve);
    deflate.on('error', reject);
  });
  const block = Buffer.alloc(4 * 1024 * 1024, 0x20);
  for (let left = decodedBytes; left > 0; left -= block.length) {
    const piece = left >= block.length ? block : block.subarray(0, left);
    if (!deflate.write(piece)) await new Promise((r) => deflate.once('drain', r));
  }
  deflate.end();
  await done;
  return pdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    PAGE(2, 4, 5),
    stream('/Filter /FlateDecode', Buffer.concat(out)),
    FONT,
  ]);
}

/** A page tree whose only kid is a node whose only kid is the root again. */
export function pageTreeCyclePdf(): Buffer {
  return pdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Pages /Parent 2 0 R /Kids [2 0 R] /Count 1 >>',
  ]);
}

/** One page whose content stream opens `depth` nested arrays before any text. */
export function deepArraysPdf(depth: number): Buffer {
  const content = Buffer.from(
    `${'['.repeat(depth)}${']'.repeat(depth)} pop\nBT /F1 12 Tf 50 700 Td (deep) Tj ET`,
    'latin1',
  );
  return pdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    PAGE(2, 4, 5),
    stream('', content),
    FONT,
  ]);
}

/** `count` pages sharing one empty content stream. */
export function emptyPagesPdf(count: number): Buffer {
  const first = 5;
  const kids = Array.from({ length: count }, (_, i) => `${first + i} 0 R`).join(' ');
  return pdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${kids}] /Count ${count} >>`,
    stream('', Buffer.alloc(0)),
    FONT,
    ...Array.from({ length: count }, () => PAGE(2, 3, 4)),
  ]);
}
