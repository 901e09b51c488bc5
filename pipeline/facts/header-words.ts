import { fold } from '../../src/text/normalise.js';

/** What a table column holds, as its header says. */
export type ColumnRole = 'code' | 'title' | 'cause' | 'step' | 'part' | 'not-code';

/*
 * Header vocabularies in the languages manuals come in (en, de, fr, es, it, nl, pt), matched against the
 * folded (lower-case, accent-free) header text of one column. A header that names codes ("Error code",
 * "Fehleranzeige") is a code header; otherwise the first role whose words it holds wins, in the order of
 * headerRole, so "Error description" is a title and "Failure causes" a cause.
 */
const NOT_CODE =
  /\b(?:parameters?|parametres?|parametros?|parametri|register|registers|address|adresse|direccion|indirizzo|modell?|models?|modele|modelo|part ?no|art\.?-?nr|teilenummer|bestellnummer|reference|pin|pins|port|ports|terminal|terminals|connector|stecker|anschluss|klemme|borne|bornier|conector|aansluiting|seq|input|output|eingang|ausgang|entree|sortie|entrada|salida|setting|settings|einstellung|werkseinstellung|default|reglage|ajuste|range|bereich|plage|rango|step|schritt|etape|paso|stap|item|pos|position|nr|no|n°|number|nummer|numero|sub-?code|value|wert|valeur|valor|waarde|blinks?|veces|times|led\d?|page|pages|seite|pagina|referencia|riferimento|verweis)\b/;
const STRONG_TITLE =
  /\b(?:descriptions?|beschreibung|fehlerbeschreibung|bedeutung|meaning|signification|descripcion|descricao|descrizione|significado|significato|omschrijving|beschrijving|betekenis|foutbeschrijving)\b/;
const CAUSE =
  /\b(?:causes?|reasons?|ursachen?|grund|raisons?|causas?|motivo|oorzaak|oorzaken|conditions?|bedingung|detection|erkennung)\b/;
const STEP =
  /\b(?:remed(?:y|ies)|solutions?|actions?|corrective|countermeasures?|measures?|checks?|inspection|troubleshooting|behebung|abhilfe|losung|massnahmen?|kontrolle|prufung|prufen|remedes?|verification|controle|solucion|soluciones|accion|acciones|comprobacion|verificacion|rimedio|soluzione|verifica|oplossing|oplossingen|actie|remedie|handeling)\b/;
const WEAK_TITLE =
  /\b(?:name|bezeichnung|nom|nombre|naam|designation|content|contents|inhalt|contenu|contenido|problem|probleme|problema|probleem|symptoms?|symptome|sintoma|symptoom|failure|anomalie|schutz|protection)\b/;
const PART =
  /\b(?:parts?|component|components|bauteil|komponente|piece|pieza|componente|onderdeel|location|ort)\b/;
const CODE =
  /\b(?:codes?|error|errors|fault|faults|alarm|alarms|fehler|storung|storungen|fehlercode|fehleranzeige|anzeige|display|affichage|erreur|defaut|defauts|codigo|codigos|falla|averia|errore|guasto|storing|storingen|fout|foutcode|melding|err)\b/;
/** Words by which a header names its column as the code column, even among other words. */
const NAMES_CODES =
  /\b(?:codes?|fehlercode|foutcode|codigo|check code|fehleranzeige|anzeige|display|pantalla|(?:error|fault|alarm|fehler|storung)\s*-?\s*(?:no|nr|number|nummer))\b/;

/** The role a column header names, or undefined when it names none of them. */
export function headerRole(header: string): ColumnRole | undefined {
  const text = fold(header).replace(/\s+/g, ' ').trim();
  if (!text) return undefined;
  if (
    NAMES_CODES.test(text) &&
    !STRONG_TITLE.test(text) &&
    !CAUSE.test(text) &&
    !/\b(?:sub-?code|register|address|parameter)/.test(text)
  ) {
    return 'code';
  }
  if (NOT_CODE.test(text)) return 'not-code';
  if (STRONG_TITLE.test(text)) return 'title';
  if (PART.test(text)) return 'part';
  if (CAUSE.test(text)) return 'cause';
  if (STEP.test(text)) return 'step';
  if (WEAK_TITLE.test(text)) return 'title';
  if (CODE.test(text)) return 'code';
  return undefined;
}

/**
 * Words that say a page deals with faults: a table of codes on such a page (or under such a heading) is an
 * error-code table; elsewhere code-like tokens are more likely part numbers, terminals or parameters.
 */
const FAULT_CONTEXT =
  /\b(?:errors?|error codes?|faults?|fault codes?|trouble|troubleshooting|malfunctions?|alarms?|abnormal|abnormality|failures?|protection|check codes?|diagnos\w*|fehler\w*|storung\w*|stoerung\w*|warnung|alarm\w*|erreurs?|defauts?|pannes?|anomalies?|diagnostic|averias?|fallas?|fallos?|errores|codigos? de error|alarma|errore|errori|guasti|erros|falhas?|avarias?|b[lł]ad|b[lł]edy|b[lł]edow|usterki?|awari[ae]|allarmi|storing\w*|fouten|foutcodes?|probleemanalyse|alarmen|schutz\w*|defekt\w*|proteccion|beveiliging\w*|bescherming)\b/;

export function mentionsFaults(text: string): boolean {
  return FAULT_CONTEXT.test(fold(text));
}
