import type { Sidecar } from '../src/contract/sidecar.js';
import type { ExcerptCell } from '../src/text/excerpt-cells.js';
import type { CodeLineRecord } from './facts/code-index.js';
import type { Box } from './layout/types.js';

export interface ChunkRecord {
  id: string;
  pageStart: number;
  pageEnd: number;
  sectionPath: string[];
  kind: 'text' | 'table' | 'procedure';
  text: string;
  boxes: Box[];
}

export interface StepRecord {
  order: number;
  text: string;
  /** The manual's warning for this step (isolate power, ...), or null. */
  safety: string | null;
}

export interface ErrorCodeRecord {
  /** The code as printed ("P 12", "A5-00"). */
  code: string;
  title: string;
  causes: string[];
  steps: StepRecord[];
  part: { name: string; reference: string | null } | null;
  /**
   * The code's definition as a reader sees it: a table row's cells (`excerptCells`), one line each, or
   * prose verbatim as it stands on `page`.
   */
  excerpt: string;
  /** The table row's cells the excerpt is made of, each line verbatim on the row's pages; null for prose. */
  excerptCells?: ExcerptCell[] | null;
  page: number;
  pages: number[];
  chunkId: string | null;
  procedure: { chunkId: string; pageStart: number; pageEnd: number } | null;
}

export interface PageRecord {
  page: number;
  width: number;
  height: number;
  text: string;
  /** A table of contents, an index, a list of figures (pipeline/structure/navigation.ts). */
  navigation: boolean;
  /** The language the page is printed in, 'mul' when none stands out. */
  language: string;
}

/** Everything the pipeline extracts from one manual, ready for the bundle writer. */
export interface ExtractedDocument {
  id: string;
  fileName: string;
  sha256: string;
  sidecar: Sidecar;
  sidecarSource: 'file' | 'detected';
  extractorVersion: number;
  pageCount: number;
  pages: PageRecord[];
  chunks: ChunkRecord[];
  errorCodes: ErrorCodeRecord[];
  /** The code index: codes opening a cell, line or list item, with their row or line (facts/code-index.ts). */
  codeLines: CodeLineRecord[];
  warnings: string[];
}
