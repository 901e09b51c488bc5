/** What surrounds the body: cover page, contents page, running headers and footers. */
import type { BodyLayout, TocEntry } from './layout.js';
import type { ManualCover, ManualLayout } from './manual-source.js';
import { baseline, CONTENT_WIDTH, INK, MUTED, PAGE, RULE, type TextStyle } from './page-geometry.js';
import type { Painter } from './painter.js';

export function drawRunningHeader(p: Painter, layout: ManualLayout, brand: string): void {
  const titleSize = 8.5;
  const brandSize = 9.5;
  const brandWidth = p.width(brand, 'bold', brandSize);
  const titleWidth = p.width(layout.header_title, 'regular', titleSize);
  if (layout.header_order === 'title_left') {
    p.text(layout.header_title, PAGE.left, PAGE.headerBaseline, 'regular', titleSize, MUTED);
    p.text(brand, PAGE.right - brandWidth, PAGE.headerBaseline, 'bold', brandSize, layout.accent);
  } else {
    p.text(brand, PAGE.left, PAGE.headerBaseline, 'bold', brandSize, layout.accent);
    p.text(layout.header_title, PAGE.right - titleWidth, PAGE.headerBaseline, 'regular', titleSize, MUTED);
  }
  p.rule(PAGE.left, PAGE.headerRule, PAGE.right, PAGE.headerRule, layout.accent, 0.8);
}

export function folioText(layout: ManualLayout, page: number, total: number): string {
  if (layout.folio === 'dash') return `- ${page} -`;
  if (layout.folio === 'page_of') return `Page ${page} of ${total}`;
  return `Page ${page} / ${total}`;
}

export function drawRunningFooter(p: Painter, layout: ManualLayout, page: number, total: number): void {
  const size = 8;
  p.rule(PAGE.left, PAGE.footerRule, PAGE.right, PAGE.footerRule, RULE, 0.5);
  p.text(layout.footer_text, PAGE.left, PAGE.footerBaseline, 'regular', size, MUTED);
  const folio = folioText(layout, page, total);
  const folioWidth = p.width(folio, 'regular', 8.5);
  const x = layout.folio === 'dash' ? PAGE.left + (CONTENT_WIDTH - folioWidth) / 2 : PAGE.right - folioWidth;
  p.text(folio, x, PAGE.footerBaseline, 'regular', 8.5, INK);
}

export function drawContents(p: Painter, layout: ManualLayout, entries: TocEntry[]): void {
  const title = layout.contents_title ?? 'Contents';
  const titleStyle: TextStyle = { size: 14.5, leading: 19 };
  p.text(title, PAGE.left, baseline(PAGE.contentTop, titleStyle), 'bold', titleStyle.size, layout.accent);
  p.rule(PAGE.left, PAGE.contentTop + 23, PAGE.right, PAGE.contentTop + 23, layout.accent, 1);
  let top = PAGE.contentTop + 34;
  const dot = p.width(' .', 'regular', 9);
  for (const entry of entries.filter((e) => e.level <= 2)) {
    const major = entry.level === 1;
    const style: TextStyle = { size: major ? 10 : 9.5, leading: major ? 17 : 13.5 };
    if (major && top > PAGE.contentTop + 34) top += 4;
    const font = major ? 'bold' : 'regular';
    const indent = major ? 0 : 22;
    const y = baseline(top, style);
    const titleX = PAGE.left + indent + (entry.number ? (major ? 22 : 30) : 0);
    if (entry.number) p.text(entry.number, PAGE.left + indent, y, font, style.size);
    p.text(entry.title, titleX, y, font, style.size);
    const pageText = String(entry.page);
    const pageWidth = p.width(pageText, font, style.size);
    const leaderStart = titleX + p.width(entry.title, font, style.size) + 4;
    const leaderEnd = PAGE.right - pageWidth - 6;
    const dots = Math.floor((leaderEnd - leaderStart) / dot);
    if (dots > 2) p.text(' .'.repeat(dots), leaderEnd - dots * dot, y, 'regular', 9, MUTED);
    p.text(pageText, PAGE.right - pageWidth, y, font, style.size);
    top += style.leading;
  }
}

function drawIllustration(p: Painter, kind: ManualCover['illustration'], accent: string): void {
  const doc = p.doc;
  const cx = PAGE.width / 2;
  doc.save().lineWidth(1.4).strokeColor('#3a3a3a');
  const fan = (x: number, y: number, r: number) => {
    doc.circle(x, y, r).stroke();
    doc.circle(x, y, r * 0.82).stroke();
    doc.circle(x, y, r * 0.12).fillAndStroke('#9aa3ad', '#3a3a3a');
    for (let k = -3; k <= 3; k++) {
      const dy = (k * r) / 4;
      const half = Math.sqrt(Math.max(0, r * r * 0.67 - dy * dy));
      doc
        .moveTo(x - half, y + dy)
        .lineTo(x + half, y + dy)
        .stroke();
    }
  };
  if (kind === 'monobloc') {
    doc.roundedRect(cx - 160, 300, 320, 200, 8).fillAndStroke('#f3f5f7', '#3a3a3a');
    fan(cx - 60, 400, 78);
    for (let k = 0; k < 9; k++)
      doc
        .moveTo(cx + 50 + k * 11, 320)
        .lineTo(cx + 50 + k * 11, 480)
        .stroke();
    doc.rect(cx + 110, 310, 40, 12).fillAndStroke(accent, accent);
    doc.rect(cx - 140, 500, 30, 10).stroke();
    doc.rect(cx + 110, 500, 30, 10).stroke();
  } else if (kind === 'split_outdoor') {
    doc.roundedRect(cx - 190, 330, 220, 160, 6).fillAndStroke('#f3f5f7', '#3a3a3a');
    fan(cx - 110, 410, 60);
    for (let k = 0; k < 5; k++)
      doc
        .moveTo(cx - 30 + k * 10, 345)
        .lineTo(cx - 30 + k * 10, 475)
        .stroke();
    doc.roundedRect(cx + 70, 300, 120, 190, 6).fillAndStroke('#ffffff', '#3a3a3a');
    doc.rect(cx + 95, 325, 70, 36).fillAndStroke('#dfe6ee', '#3a3a3a');
    doc.rect(cx + 118, 372, 24, 8).fillAndStroke(accent, accent);
    for (const px of [cx + 95, cx + 115, cx + 145, cx + 165]) doc.moveTo(px, 490).lineTo(px, 520).stroke();
    doc
      .moveTo(cx + 30, 440)
      .lineTo(cx + 70, 440)
      .stroke();
    doc
      .moveTo(cx + 30, 452)
      .lineTo(cx + 70, 452)
      .stroke();
  } else {
    doc.roundedRect(cx - 170, 320, 340, 100, 18).fillAndStroke('#f7f8fa', '#3a3a3a');
    doc
      .moveTo(cx - 150, 395)
      .lineTo(cx + 150, 395)
      .stroke();
    doc
      .moveTo(cx - 140, 405)
      .lineTo(cx + 140, 405)
      .stroke();
    doc.circle(cx + 135, 345, 4).fillAndStroke(accent, accent);
    doc.roundedRect(cx - 30, 450, 60, 110, 10).fillAndStroke('#ffffff', '#3a3a3a');
    doc.rect(cx - 20, 462, 40, 24).fillAndStroke('#dfe6ee', '#3a3a3a');
    for (let r = 0; r < 3; r++) {
      for (let c = 0; c < 3; c++) doc.circle(cx - 14 + c * 14, 502 + r * 16, 4).stroke();
    }
  }
  doc.restore();
}

export function drawCover(p: Painter, cover: ManualCover, layout: ManualLayout, brand: string): void {
  const accent = layout.accent;
  p.fillRect(0, 0, PAGE.width, 128, accent);
  p.text(brand.toUpperCase(), PAGE.left, 66, 'bold', 28, '#ffffff');
  p.text(cover.company, PAGE.left, 86, 'regular', 9.5, '#ffffff');
  const kickerWidth = p.width(cover.kicker, 'bold', 12);
  p.text(cover.kicker, PAGE.right - kickerWidth, 66, 'bold', 12, '#ffffff');

  const titleStyle: TextStyle = { size: 23, leading: 28 };
  const titleLines = p.wrap(cover.title, CONTENT_WIDTH, titleStyle, 'bold');
  let top = 168;
  for (const line of titleLines) {
    p.line(line, PAGE.left, baseline(top, titleStyle), CONTENT_WIDTH, titleStyle.size);
    top += titleStyle.leading;
  }
  const subStyle: TextStyle = { size: 12.5, leading: 16 };
  for (const line of p.wrap(cover.subtitle, CONTENT_WIDTH, subStyle)) {
    p.line(line, PAGE.left, baseline(top + 4, subStyle), CONTENT_WIDTH, subStyle.size, 'left', MUTED);
    top += subStyle.leading;
  }

  drawIllustration(p, cover.illustration, accent);

  let y = 572;
  p.text(cover.models_heading, PAGE.left, y, 'bold', 11, accent);
  p.rule(PAGE.left, y + 5, PAGE.left + 240, y + 5, accent, 0.8);
  y += 20;
  for (const line of cover.model_lines) {
    p.text(line, PAGE.left, y, 'regular', 10.5, INK);
    y += 15;
  }

  const noticeTop = 700;
  p.strokeRect(PAGE.left, noticeTop, CONTENT_WIDTH, 30, '#b3261e', 1.4);
  const noticeWidth = p.width(cover.notice, 'bold', 11.5);
  p.text(
    cover.notice,
    PAGE.left + (CONTENT_WIDTH - noticeWidth) / 2,
    noticeTop + 19.5,
    'bold',
    11.5,
    '#b3261e',
  );
  if (cover.footnote) {
    const noteStyle: TextStyle = { size: 8, leading: 10 };
    p.wrap(cover.footnote, CONTENT_WIDTH, noteStyle).forEach((line, i) => {
      p.line(
        line,
        PAGE.left,
        baseline(noticeTop + 36 + i * noteStyle.leading, noteStyle),
        CONTENT_WIDTH,
        8,
        'left',
        MUTED,
      );
    });
  }

  p.rule(PAGE.left, PAGE.footerRule, PAGE.right, PAGE.footerRule, accent, 1);
  p.text(cover.edition, PAGE.left, PAGE.footerBaseline, 'bold', 9.5, INK);
  const companyWidth = p.width(cover.company, 'regular', 9);
  p.text(cover.company, PAGE.right - companyWidth, PAGE.footerBaseline, 'regular', 9, MUTED);
}

/**
 * Draws a whole manual, `addPage` starting each page: the cover, the contents (when the layout has a contents title) and the
 * body pages, each body page with its running header and footer.
 */
export function drawManualPages(
  p: Painter,
  addPage: () => void,
  parts: { cover: ManualCover; layout: ManualLayout; brand: string; body: BodyLayout; firstBodyPage: number },
): void {
  const { cover, layout, brand, body, firstBodyPage } = parts;
  const total = firstBodyPage - 1 + body.pages.length;
  const furniture = (page: number) => {
    drawRunningHeader(p, layout, brand);
    drawRunningFooter(p, layout, page, total);
  };
  addPage();
  drawCover(p, cover, layout, brand);
  if (layout.contents_title !== undefined) {
    addPage();
    furniture(2);
    drawContents(p, layout, body.toc);
  }
  body.pages.forEach((placements, index) => {
    addPage();
    furniture(firstBodyPage + index);
    for (const { box, x, top } of placements) box.draw(p, x, top);
  });
}
