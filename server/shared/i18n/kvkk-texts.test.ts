import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { MESSAGES } from "./messages.ts";
import { translatorFor } from "./translator.ts";

const root = path.resolve(import.meta.dirname, "../../..");

/** The policy entries the seed migration inserts, as stored. */
function seededPolicy(): Record<string, Record<string, string>> {
  const sql = fs.readFileSync(path.join(root, "prisma/migrations/20261204145300_kvkk_policy/migration.sql"), "utf8");
  const values = sql.slice(sql.indexOf("VALUES", sql.indexOf('INSERT INTO "PolicyEntry"')) + 6);
  const toks = [...values.matchAll(/'((?:[^']|'')*)'|(NULL|\b\d+\b|now\(\))/g)].map((m) => (m[1] !== undefined ? m[1].replaceAll("''", "'") : m[2]!));
  const fields = ["store", "category", "dataSubjects", "purpose", "legalBasis", "periodDays", "periodReason", "responsible", "updatedAt"];
  const out: Record<string, Record<string, string>> = {};
  for (let i = 0; i < toks.length; i += fields.length) {
    const row = Object.fromEntries(fields.map((f, j) => [f, toks[i + j]!]));
    out[row.store!] = Object.fromEntries(Object.entries(row).filter(([f]) => !["store", "periodDays", "updatedAt"].includes(f)));
  }
  return out;
}

describe("KVKK texts Kule drafts or seeds", () => {
  it("has the seeded policy's English word for word, so an unedited entry reads the same in English as it is stored", () => {
    const seeded = seededPolicy();
    expect(Object.keys(seeded)).toHaveLength(7);
    const t = translatorFor("en");
    for (const [store, texts] of Object.entries(seeded)) for (const [f, text] of Object.entries(texts)) expect(t(`kvkkTexts.policy.${store}.${f}` as "kvkkTexts.policy.call_log.category")).toBe(text);
  });

  it("writes the Turkish in the law's terms", () => {
    const tr = JSON.stringify(MESSAGES.tr.kvkkTexts);
    for (const term of ["ilgili kişi", "veri sorumlusu", "Veri işleyen", "imha", "silin", "Yok Edilmesi", "Anonim Hale Getirilmesi", "Kurul", "Yurt dışına aktarım"]) expect(tr).toContain(term);
    const t = translatorFor("tr");
    expect(t("kvkkTexts.erasureAnswer", { method: "anonymize", rows: "3", id: "d1" })).toBe("Bu hizmetin çağrı kaydındaki kişisel verileriniz anonim hale getirildi: 3 kayıt, imha kaydı d1.");
    expect(t("kvkkTexts.erasureAnswer", { method: "delete", rows: "3", id: "d1" })).toMatch(/verileriniz silindi/);
  });
});
