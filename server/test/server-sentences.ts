import { REASON_TEMPLATES_TR } from "../shared/i18n/server/reasons-tr.ts";
import { MIG_TEMPLATES_TR } from "../shared/i18n/server/mig-tr.ts";
import { BREACH_TEMPLATES_TR } from "../shared/i18n/server/breaches-tr.ts";
import { REPLICA_TEMPLATES_TR } from "../shared/i18n/server/replicas-tr.ts";

/** Tests' reading of the sentences the server composes for pages, and of their Turkish. */

/** The literal text of every string and template literal in `src` (a template's `${…}` splits it, nested ones included). */
export function literals(src: string): string[] {
  const out: string[] = [];
  const template = (i: number): number => {
    let text = "";
    for (i++; src[i] !== "`"; ) {
      if (src.startsWith("${", i)) {
        out.push(text);
        text = "";
        let depth = 1;
        for (i += 2; depth; i++) {
          if (src[i] === "`") i = template(i);
          else if (src[i] === '"') i = src.indexOf('"', i + 1);
          else if (src[i] === "{") depth++;
          else if (src[i] === "}") depth--;
        }
      } else text += src[i++];
    }
    out.push(text);
    return i;
  };
  for (let i = 0; i < src.length; i++) {
    if (src[i] === '"') {
      const j = src.indexOf('"', i + 1);
      out.push(src.slice(i + 1, j));
      i = j;
    } else if (src[i] === "`") i = template(i);
  }
  return out;
}

const WORD = /(?<!\p{L})[a-z]{3,}(?!\p{L})/gu;
/** What a Turkish sentence quotes as it was written: a command to run, CUDA's and PyTorch's own messages. */
const QUOTED = /kubectl [^)]*|CUDA error: unspecified launch failure|torch\.OutOfMemoryError: CUDA out of memory\./g;
/** Words of the English templates: none may be left in a Turkish reason. */
const ENGLISH = new Set([...REASON_TEMPLATES_TR, ...MIG_TEMPLATES_TR, ...BREACH_TEMPLATES_TR, ...REPLICA_TEMPLATES_TR].flatMap(([en]) => en.replace(QUOTED, " ").replace(/\{\w+\}/g, " ").match(WORD) ?? []));
/** "pod" is Turkish too, and "node" names a host (node-a). */
const KEPT = new Set(["pod", "node"]);
/** Whether a translation still has an English word of the templates in it (a whole word: "Kule" is a name), quotes and identifiers (call_log) aside. */
export const englishIn = (tr: string) => (tr.replace(QUOTED, " ").replace(/\w+_\w+/g, " ").match(WORD) ?? []).some((w) => ENGLISH.has(w) && !KEPT.has(w));
