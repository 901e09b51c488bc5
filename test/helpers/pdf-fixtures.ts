import fs from 'node:fs';
import path from 'node:path';
import PDFDocument from 'pdfkit';
import sharp from 'sharp';

export interface FixturePage {
  heading?: string;
  lines?: string[];
  /** Table rows, first row the header; cells placed at fixed x positions like a real code table. */
  table?: string[][];
}

export interface FixtureOptions {
  title?: string;
  pages: FixturePage[];
  /** Encrypt with this user password. */
  password?: string;
  /** Running header/footer printed on every page. */
  furniture?: boolean;
}

const COLUMNS = [50, 110, 260, 400];

/** Renders a small, deterministic manual-like PDF. */
export function renderPdf(options: FixtureOptions): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: 50,
    autoFirstPage: false,
    info: { Title: options.title ?? 'Fixture manual', CreationDate: new Date(0), ModDate: new Date(0) },
    ...(options.password
      ? { userPassword: options.password, ownerPassword: `${options.password}-owner` }
      : {}),
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));
  options.pages.forEach((page, i) => {
    doc.addPage();
    if (options.furniture !== false) {
      doc
        .font('Helvetica')
        .fontSize(8)
        .text(options.title ?? 'Fixture manual', 50, 30, { lineBreak: false });
      doc.text(`Page ${i + 1} / ${options.pages.length}`, 260, 800, { lineBreak: false });
    }
    let y = 70;
    if (page.heading) {
      doc.font('Helvetica-Bold').fontSize(16).text(page.heading, 50, y, { lineBreak: false });
      y += 30;
    }
    doc.font('Helvetica').fontSize(10);
    for (const line of page.lines ?? []) {
      doc.text(line, 50, y, { width: 495, lineBreak: false });
      y += 15;
    }
    if (page.table) {
      y += 10;
      page.table.forEach((row, r) => {
        doc.font(r === 0 ? 'Helvetica-Bold' : 'Helvetica').fontSize(9);
        row.forEach((cell, c) => {
          doc.text(cell, COLUMNS[c] ?? 50, y, { width: 140, lineBreak: false });
        });
        y += 16;
      });
    }
  });
  doc.end();
  return done;
}

/** A PDF whose only page is an image and no text layer, as a scan is. */
export async function renderImageOnlyPdf(): Promise<Buffer> {
  const scan = await sharp({ create: { width: 60, height: 80, channels: 3, background: '#777777' } })
    .png()
    .toBuffer();
  const doc = new PDFDocument({ size: 'A4', info: { CreationDate: new Date(0) } });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));
  doc.image(scan, 100, 100, { width: 300 });
  doc.end();
  return done;
}

export const CODE_TABLE: string[][] = [
  ['Code', 'Description', 'Cause', 'Remedy'],
  ['E1', 'Outdoor sensor fault', 'Sensor open circuit', 'Check sensor wiring'],
  ['E9', 'Water flow too low', 'Clogged strainer', 'Clean the strainer'],
  ['H5', 'Compressor overheat', 'Low refrigerant charge', 'Check for leaks'],
  ['P 12', 'High pressure trip', 'Fan blocked', 'Clear the fan'],
];

export function sidecarYaml(fields: Record<string, unknown>): string {
  const lines: string[] = [];
  for (const [k, v] of Object.entries(fields)) {
    if (k === 'models') continue;
    lines.push(`${k}: ${typeof v === 'string' ? JSON.stringify(v) : String(v)}`);
  }
  const models = fields.models as { name: string; range?: string; aliases?: string[] }[] | undefined;
  if (models) {
    lines.push('models:');
    for (const m of models) {
      lines.push(`  - name: ${JSON.stringify(m.name)}`);
      if (m.range) lines.push(`    range: ${JSON.stringify(m.range)}`);
      if (m.aliases) lines.push(`    aliases: ${JSON.stringify(m.aliases)}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

export const VALID_SIDECAR = {
  title: 'Fixture Service Manual',
  brand: 'Demotherm',
  doc_type: 'service_manual',
  language: 'en',
  equipment: 'air_water',
  approved: true,
  models: [{ name: 'FX-100', range: 'Fixture', aliases: ['FX100'] }],
};

/** Writes a PDF and (optionally) its sidecar into a folder. */
export function writeManual(dir: string, name: string, pdf: Buffer, sidecar?: string): string {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}.pdf`);
  fs.writeFileSync(file, pdf);
  if (sidecar !== undefined) fs.writeFileSync(path.join(dir, `${name}.yaml`), sidecar);
  return file;
}

export function manualPages(extra = ''): FixturePage[] {
  return [
    {
      heading: '1 Safety',
      lines: [
        `Read this manual before servicing the FX-100 unit. ${extra}`,
        'Isolate the power supply first.',
      ],
    },
    { heading: '2 Error codes', lines: ['The controller shows the following codes.'], table: CODE_TABLE },
    {
      heading: '3 Maintenance',
      lines: ['Clean the water strainer every year.', 'Check the system pressure: 1.5 bar.'],
    },
  ];
}
