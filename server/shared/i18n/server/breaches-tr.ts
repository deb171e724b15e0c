/**
 * What the chain check writes into a breach incident it opens (server/kvkk/breaches.ts
 * chainFinding, the reasons of server/audit/seal/verify.ts), in Turkish with the KVKK's terms.
 * Stored in English when detected; an operator's own edits match no template and stay as typed.
 * Also why a signed chain head fails (server/audit/seal/heads.ts checkHeads, shown by the check).
 */
export const BREACH_TEMPLATES_TR: [en: string, tr: string][] = [
  ["The call log no longer matches its seal from {start}", "Çağrı kaydı {start} itibarıyla mührüyle artık eşleşmiyor"],
  ["The audit log no longer matches its seal from {start}", "Denetim kaydı {start} itibarıyla mührüyle artık eşleşmiyor"],
  ["The chain check found: {finding}. Rows may have been changed, removed or added outside Kule.", "Zincir denetiminin bulduğu: {finding}. Kayıtlar Kule dışında değiştirilmiş, silinmiş ya da eklenmiş olabilir."],
  // The chain check's findings.
  ["rows dated before the first sealed segment", "ilk mühürlü bölümden önceye tarihli kayıtlar"],
  ["the seal itself was altered (chain broken)", "mührün kendisi değiştirilmiş (zincir kırık)"],
  ["rows changed before destruction {id} ran", "{id} imhası yapılmadan önce kayıtlar değiştirilmiş"],
  ["rows added", "kayıt eklenmiş"],
  ["rows missing", "kayıt eksik"],
  ["rows changed", "kayıtlar değiştirilmiş"],
  ["destruction record {id} does not match its sealed audit event", "{id} imha kaydı mühürlü denetim olayıyla eşleşmiyor"],
  // Signed heads.
  ["signed head {stream} through {through}: {reason}", "{through} tarihine kadarki imzalı {stream} zincir başı: {reason}"],
  ["its signature does not hold under the seal key", "imzası mühür anahtarıyla doğrulanmıyor"],
  ["the {stream} chain has no segment for the hour the head seals ({hour})", "{stream} zincirinde zincir başının mühürlediği saate ait bölüm yok ({hour})"],
  ["the {stream} chain through {through} no longer ends in the signed hash: its seals were rewritten", "{stream} zinciri {through} tarihinde artık imzalı özetle bitmiyor: mühürleri yeniden yazılmış"],
];
