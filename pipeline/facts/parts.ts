/**
 * Names of heat-pump parts in the corpus languages. A code's part is the first of them its description
 * names, with the words that qualify it there ("water inlet temp. sensor", "sensor de temperatura
 * ambiente"), as printed.
 */
const PART =
  /^(?:thermistors?|sensors?|probes?|fan motors?|motors?|fans?|compressors?|pumps?|flow switch(?:es)?|pressure switch(?:es)?|switch(?:es)?|valves?|heaters?|p\.?c\.? ?boards?|pcbs?|boards?|mainboards?|eeprom|ipm|fuses?|capacitors?|contactors?|relays?|transformers?|remote controllers?|wire controllers?|controllers?|cables?|wiring|thermostats?|fühler|sensoren|verdichter|pumpe|ventil|expansionsventil|schütz|lüfter|wächter|hochdruckwächter|niederdruckwächter|druckschalter|durchflussschalter|platine|heizstab|sonde|capteur|compresseur|pompe|vanne|ventilateur|pressostat|carte|résistance|sensor|termistor|compresor|motor del ventilador|ventilador|bomba|válvula|placa|tarjeta|fusible|pomp|ventilator|klep|schakelaar|moederbord|printplaat|compressor|verwarmingselement)$/iu;
/** German and Dutch compounds that end in a part name ("Temperatursensor", "Wasserpumpe"). */
const COMPOUND =
  /\p{L}{3,}(?:fühler|sensors?|pumpe|ventil|schalter|wächter|platine|pomp|schakelaar|klep|motor)$/iu;

/** Words that end a part's qualifiers when read backwards. */
const STOP =
  /^(?:of|the|a|an|in|on|at|for|to|and|or|error|fault|failure|trouble|abnormal(?:ity)?|protection|malfunction|open|short|circuit|des|der|die|das|den|dem|le|la|les|du|de|del|el|los|las|het|een|van|is|zu|bei|et|y|und|en|between|zwischen|entre|tussen|tra|with|mit|avec|con|met|from|von)$/i;
/** Prepositions that introduce a qualifier after the part name (Romance languages, Dutch). */
const AFTER = /^(?:de|del|du|des|d'|della|di|van)$/i;

export function partOf(text: string): { name: string; reference: string | null } | null {
  const words = text.split(/\s+/).filter(Boolean);
  const at = words.findIndex((w) => {
    const bare = w.replace(/^[(]+|[(),.:;]+$/g, '');
    return PART.test(bare) || COMPOUND.test(bare);
  });
  if (at < 0) return null;
  // "fan motor", "P.C. board": a two-word part name read as one.
  let end = at;
  const next = words[at + 1]?.replace(/[(),.:;]+$/g, '') ?? '';
  if (/^(?:motors?|boards?|switch(?:es)?|valves?|controllers?)$/i.test(next)) end = at + 1;
  let start = at;
  for (let i = at - 1; i >= 0 && at - i <= 4; i--) {
    const w = words[i]!;
    if (STOP.test(w) || /[,;:>)]$/.test(w) || /^[\d<(]/.test(w)) break;
    start = i;
  }
  if (AFTER.test(words[end + 1] ?? '')) {
    for (let i = end + 1; i < words.length && i <= end + 4; i++) {
      if (i > end + 1 && STOP.test(words[i]!)) break;
      end = i;
      if (/[,;:.]$/.test(words[i]!)) break;
    }
  }
  const name = words
    .slice(start, end + 1)
    .join(' ')
    .replace(/[,;:.]+$/, '')
    .trim();
  const reference = words
    .slice(start, end + 1)
    .find((w) => /^\(?[A-Z]{1,4}\d{0,2}(?:\/[A-Z]{1,4}\d{0,2})*\)?$/.test(w) && /[A-Z]{2}|\d/.test(w));
  return { name, reference: reference?.replace(/[()]/g, '') ?? null };
}
