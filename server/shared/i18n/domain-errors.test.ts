import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { translateServerMessage } from "./server-messages.ts";

const root = path.resolve(import.meta.dirname, "../../..");
/** API clients (the gateway) and the drivers' internals answer in English by design; pages never show them. */
const NOT_FOR_PAGES = /^server\/(gateway|cluster\/sim|cluster\/kubernetes|cluster\/external-driver|cluster\/sim-driver|db\/generated|test)\b/;
/** Except what a driver refuses from a page's own request: a MIG layout the Kubernetes node cannot take. */
const FOR_PAGES_TOO = /^server\/cluster\/kubernetes\/mig-writer\.ts$/;
const ERRORS = "DomainError|InvalidInputError|ConflictError|ForbiddenError|UnauthenticatedError|UnavailableError|TimeoutError|UpstreamError|RateLimitedError|TooLargeError|NotFoundError";

/** Every typed error the app's domain code throws with a sentence of its own: its kind and text, `${…}` as a sample value. */
function throwSites(): { at: string; kind: string; text: string }[] {
  const files = (fs.readdirSync(path.join(root, "server"), { recursive: true }) as string[]).map((f) => path.join("server", f)).filter((f) => f.endsWith(".ts") && !f.includes(".test.") && (!NOT_FOR_PAGES.test(f) || FOR_PAGES_TOO.test(f)));
  const out: { at: string; kind: string; text: string }[] = [];
  for (const file of files) {
    const src = fs.readFileSync(path.join(root, file), "utf8");
    for (const m of src.matchAll(new RegExp(`new (${ERRORS})\\(\\s*`, "g"))) {
      let i = m.index + m[0].length;
      if (m[1] === "InvalidInputError") for (i = src.indexOf(",", i) + 1; /\s/.test(src[i]!); i++);
      const at = `${file}:${src.slice(0, m.index).split("\n").length}`;
      if (src[i] === '"') {
        let j = i + 1;
        while (src[j] !== '"') j += src[j] === "\\" ? 2 : 1;
        out.push({ at, kind: m[1]!, text: src.slice(i + 1, j) });
      } else if (src[i] === "`") {
        let j = i + 1;
        let text = "";
        while (src[j] !== "`") {
          if (src.startsWith("${", j)) {
            // Skip the expression, nested braces and template literals included.
            let depth = 1;
            let k = j + 2;
            for (; depth; k++) {
              if (src[k] === "{") depth++;
              else if (src[k] === "}") depth--;
              else if (src[k] === "`") for (k++; src[k] !== "`"; k++);
            }
            text += "x1";
            j = k;
          } else text += src[j++];
        }
        // A message that is only a value (another error's, a computed list) has no words of its own.
        if (text !== "x1") out.push({ at, kind: m[1]!, text });
      }
    }
  }
  return out;
}

describe("the typed errors' sentences in Turkish", () => {
  it("has every sentence the app's domain code throws translated, with its values in place", () => {
    const sites = throwSites();
    expect(sites.length).toBeGreaterThan(150);
    const english = sites.filter(({ kind, text }) => {
      const said = kind === "NotFoundError" ? `${text} not found` : text;
      return translateServerMessage("tr", said) === said;
    });
    expect(english.map((s) => `${s.at}: ${s.text}`)).toEqual([]);
  });

  it("puts each value back where Turkish says it, and a state word in Turkish", () => {
    expect(translateServerMessage("tr", "version 1.2 is draining: deploy it and wait for a ready replica first")).toBe("1.2 sürümü boşaltılıyor: önce dağıtın ve hazır bir replika bekleyin");
    expect(translateServerMessage("tr", "This application was already refused.")).toBe("Bu başvuru zaten reddedildi.");
    expect(translateServerMessage("tr", "A model named llama already exists.")).toBe("llama adında bir model zaten var.");
    expect(translateServerMessage("tr", "Sign-in rule not found")).toBe("Oturum açma kuralı bulunamadı");
    // The field a form cannot show the message beside stays named, in front.
    expect(translateServerMessage("tr", "tenantId: unknown tenant")).toBe("tenantId: bilinmeyen kiracı");
    expect(translateServerMessage("tr", "A MIG change (kule-gpu-1-3f2a) is already under way on gpu-1 since 2026-12-04T10:00:00.000Z: wait for it to finish")).toBe("gpu-1 üzerinde 2026-12-04T10:00:00.000Z tarihinden beri bir MIG değişikliği (kule-gpu-1-3f2a) sürüyor: bitmesini bekleyin");
  });
});
