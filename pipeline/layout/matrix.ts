/** A PDF transformation matrix [a b c d e f], applied to row vectors as the PDF specification writes it. */
export type Matrix = [number, number, number, number, number, number];

/** `m` applied first, then `n`: PDF's `cm` operator pre-multiplies the current matrix (`cm` · CTM). */
export function multiply(m: Matrix, n: Matrix): Matrix {
  return [
    m[0] * n[0] + m[1] * n[2],
    m[0] * n[1] + m[1] * n[3],
    m[2] * n[0] + m[3] * n[2],
    m[2] * n[1] + m[3] * n[3],
    m[4] * n[0] + m[5] * n[2] + n[4],
    m[4] * n[1] + m[5] * n[3] + n[5],
  ];
}
