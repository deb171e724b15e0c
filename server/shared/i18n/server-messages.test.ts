import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { translateServerMessage } from "./server-messages.ts";

const root = path.resolve(import.meta.dirname, "../../..");

/** Every message a zod schema of the server writes for a field (`.min(2, "at least 2 characters")`…). */
function schemaMessages(): string[] {
  const files = (fs.readdirSync(path.join(root, "server"), { recursive: true }) as string[])
    .map((f) => path.join("server", f))
    .filter((f) => /(^|\/)schemas(\.ts|\/[^/]+\.ts)$/.test(f) && !f.endsWith(".test.ts"));
  const call = /\.(?:min|max|regex|refine|int|length|url|email|includes|gte|lte|positive|nonnegative|nonempty|startsWith|endsWith|multipleOf)\(((?:[^()]|\((?:[^()]|\([^()]*\))*\))*)\)/g;
  const found = new Set<string>();
  for (const f of new Set(files)) {
    const src = fs.readFileSync(path.join(root, f), "utf8");
    for (const m of src.matchAll(call)) for (const q of m[1]!.matchAll(/"((?:[^"\\]|\\.)*)"|`([^`$]*)`/g)) if (/\s/.test(q[1] ?? q[2] ?? "")) found.add((q[1] ?? q[2])!);
    for (const m of src.matchAll(/message: "([^"]+)"/g)) found.add(m[1]!);
  }
  return [...found];
}

describe("the server's messages in Turkish", () => {
  it("has every schema's field message translated", () => {
    const messages = schemaMessages();
    expect(messages.length).toBeGreaterThan(80);
    expect(messages.filter((m) => translateServerMessage("tr", m) === m)).toEqual([]);
  });

  it("translates ranges with their units and asides, not-found things, stale edits and field prefixes", () => {
    expect(translateServerMessage("tr", "at least 2 characters")).toBe("en az 2 karakter");
    expect(translateServerMessage("tr", "at most 182 days (6 months, KVKK destruction regulation)")).toBe("en fazla 182 gün (6 ay, KVKK imha yönetmeliği)");
    expect(translateServerMessage("tr", "0 to 3600 s")).toBe("0 ile 3.600 arası sn");
    expect(translateServerMessage("tr", "Endpoint version not found")).toBe("Uç nokta sürümü bulunamadı");
    expect(translateServerMessage("tr", "unmaskReason: say why you need the IP addresses, in at least 10 characters")).toBe("unmaskReason: IP adreslerine neden ihtiyaç duyduğunuzu en az 10 karakterle yazın");
    expect(translateServerMessage("tr", "Someone else changed chat-large since you loaded it. Review the current values and try again.")).toMatch(/^chat-large, siz yükledikten sonra/);
  });

  it("leaves English alone, and a message it does not know in English rather than half-translated", () => {
    expect(translateServerMessage("en", "at least 2 characters")).toBe("at least 2 characters");
    expect(translateServerMessage("tr", "at least 3 bananas")).toBe("at least 3 bananas");
    expect(translateServerMessage("tr", "Wombat not found")).toBe("Wombat not found");
  });
});
