/** Quota periods are calendar months in UTC, named `YYYY-MM`. */
export interface Period {
  name: string;
  start: Date;
  end: Date;
}

export function periodOf(ms: number): Period {
  const d = new Date(ms);
  const start = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1));
  const end = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1));
  const name = `${start.getUTCFullYear()}-${String(start.getUTCMonth() + 1).padStart(2, '0')}`;
  return { name, start, end };
}

export function periodByName(name: string): Period {
  const m = /^(\d{4})-(\d{2})$/.exec(name);
  if (!m) throw new Error(`not a period: ${name} (expected YYYY-MM)`);
  return periodOf(Date.UTC(Number(m[1]), Number(m[2]) - 1, 1));
}
