/**
 * Function words per language, accent-folded. They carry no meaning for retrieval and, left in, they let
 * long passages outscore short precise ones. Question words ("how", "welche") are included: a manual
 * rarely phrases its text as the question.
 */
export type Language = 'en' | 'fr' | 'de' | 'es' | 'nl';

export const LANGUAGES: readonly Language[] = ['en', 'fr', 'de', 'es', 'nl'];

export function isLanguage(value: string): value is Language {
  return (LANGUAGES as readonly string[]).includes(value);
}

const words = (list: string): ReadonlySet<string> => new Set(list.split(/\s+/).filter(Boolean));

export const STOP_WORDS: Record<Language, ReadonlySet<string>> = {
  en: words(`
    a an the and or but nor of to in on at by for from with without into onto over under about as
    is are was were be been being am do does did done have has had having can could shall should will
    would may might must i me my we our you your he she it its they them their this that these those
    there here what which who whom whose when where why how if then than so not no yes all any each
    every some such only also just very too more most other same both either neither own out
    again once while during before after above below between through until against per via
    get gets got let lets s t need needs want many much
  `),
  fr: words(`
    a au aux avec ce ces cet cette ceci cela ca dans de des du d elle elles en et eux il ils je j la le
    les leur leurs l lui ma mais me m meme mes moi mon ne n nos notre nous on ou par pas pour qu que
    quel quelle quels quelles qui quoi sa se s ses son sur ta te tes toi ton tu un une vos votre vous y
    est sont etre ete suis es sommes etes etait etaient sera seront serait a ai as avons avez ont avoir
    eu fait faire faut doit dois doivent peut peuvent puis comment pourquoi quand lors si ni donc car
    or dont ou ici la plus moins tres tout tous toute toutes aussi sans sous entre vers chez c cet
    combien beaucoup
  `),
  de: words(`
    der die das den dem des ein eine einer eines einem einen und oder aber doch als auch an am auf aus
    bei bis durch fur gegen hinter im in ins mit nach neben ohne seit uber um unter von vor wahrend
    wegen zu zum zur ist sind war waren bin bist sein seid wird werden wurde wurden worden hat haben
    hatte hatten habe kann konnen muss mussen soll sollen darf durfen will wollen mochte ich du er sie
    es wir ihr mich mir dich dir sich uns euch mein meine dein deine ihre ihren ihrem unser wie was wer
    wo wann warum welche welcher welches welchen welchem wenn dass ob nicht kein keine keinen so da
    dann denn nur noch schon sehr mehr dies diese dieser dieses diesem diesen jede jeder jedes man
    etwa ab beim vom damit sodass viel viele vielen
  `),
  es: words(`
    el la los las lo un una unos unas y e o u de del al a en con por para sin sobre entre hasta desde
    que quien cual cuales cuando donde como porque si no ni es son ser fue fueron era esta estan estar
    esta este estos estas ese esa esos esas aquel he ha han hay haber se me te le les nos mi mis tu tus
    su sus yo el ella ellos ellas usted ustedes muy mas menos tambien ya debo debe deben puedo puede
    pueden cuanto cuanta cuantos cuantas mucho muchos mucha muchas
  `),
  nl: words(`
    de het een en of maar van in op aan met voor door bij naar uit over onder tot om te als dan dat
    die dit deze is zijn was waren ben bent wordt worden werd werden heeft hebben had hadden kan
    kunnen moet moeten mag mogen zal zullen wil willen ik jij je u hij zij ze wij we mij me mijn jouw
    uw zijn haar ons onze hun hoe wat wie waar wanneer waarom welk welke er hier daar niet geen zo ook
    nog al wel toch dus want maar tussen zit zitten hoeveel veel
  `),
};

/** A word that is a function word in any supported language: how a query of unknown language is cleaned. */
export function isStopWordAnywhere(word: string): boolean {
  for (const lang of LANGUAGES) if (STOP_WORDS[lang].has(word)) return true;
  return false;
}
