import type { BundleInfo, VerifyReport } from '../bundle/inspect.js';

export function formatBundleInfo(info: BundleInfo): string {
  const t = info.totals;
  const lines = [
    `${info.file} (format ${info.format_version}, built ${info.built_at})`,
    `${t.documents} documents, ${t.pages} pages, ${t.chunks} chunks, ${t.error_codes} error codes, ${t.models} models, ${t.snapshots} snapshots`,
    '',
    'brand                        docs  models  codes',
    ...info.brands.map(
      (b) =>
        `${b.brand.padEnd(28)} ${String(b.documents).padStart(4)} ${String(b.models).padStart(7)} ${String(b.error_codes).padStart(6)}`,
    ),
    '',
    ...info.documents.map(
      (d) =>
        `${d.id}  [${d.brand}, ${d.language}${d.approved ? ', approved' : ''}] ${d.pages} p, ${d.chunks} chunks, ${d.error_codes} codes${d.warnings.length ? `, ${d.warnings.length} warning(s)` : ''}`,
    ),
  ];
  return lines.join('\n');
}

export function formatVerifyReport(report: VerifyReport): string {
  const lines = report.checks.flatMap((c) => [
    !c.ok
      ? `✗ ${c.name}`
      : c.skipped
        ? `– ${c.name}: not checked, ${c.skipped}`
        : `✓ ${c.name}${c.note ? ` (${c.note})` : ''}`,
    ...c.failures.map((f) => `    ${f}`),
  ]);
  const skipped = report.checks.filter((c) => c.ok && c.skipped).length;
  lines.push(
    report.ok
      ? `${report.file}: OK${skipped > 0 ? ` (${skipped} check${skipped > 1 ? 's' : ''} not applicable)` : ''}`
      : `${report.file}: FAILED`,
  );
  return lines.join('\n');
}
