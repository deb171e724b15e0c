/** Units the server's English messages count in, as Turkish writes them after a number (no plural). */
export const UNITS_TR: Record<string, string> = {
  character: "karakter",
  characters: "karakter",
  day: "gün",
  days: "gün",
  minute: "dakika",
  minutes: "dakika",
  ms: "ms",
  s: "sn",
  replica: "replika",
  replicas: "replika",
  step: "adım",
  steps: "adım",
  token: "token",
  tokens: "token",
  points: "puan",
  "%": "%",
  "per minute": "/dakika",
  "alerts per delivery": "uyarı/gönderim",
};

/** What the server calls the things it cannot find ("Tenant not found"). */
export const THINGS_TR: Record<string, string> = {
  Tenant: "Kiracı",
  Model: "Model",
  Replica: "Replika",
  Endpoint: "Uç nokta",
  "Key version": "Anahtar sürümü",
  Node: "Düğüm",
  GPU: "GPU",
  "Endpoint version": "Uç nokta sürümü",
  Receiver: "Alıcı",
  "Price plan": "Fiyat planı",
  "MIG instance": "MIG örneği",
  "Breach incident": "Veri ihlali kaydı",
  Application: "Başvuru",
  "API key": "API anahtarı",
  User: "Kullanıcı",
  "Transfer safeguard": "Aktarım güvencesi",
  "Simulated replica": "Benzetilen replika",
  Route: "Yol",
  Rollout: "Dağıtım",
  "Autoscaling policy": "Otomatik ölçekleme politikası",
  "MIG change": "MIG değişikliği",
  "Policy entry": "Politika kaydı",
  "Model version": "Model sürümü",
  "Legal hold": "Hukuki muhafaza",
  Export: "Dışa aktarım",
  "Data-subject request": "İlgili kişi talebi",
  Call: "Çağrı",
  Silence: "Susturma",
  Alert: "Uyarı",
  "Sign-in rule": "Oturum açma kuralı",
};

/**
 * Placeholders that hold a quantity: a bare number there ("12.50", a signal's value; "4096" tokens)
 * is written the Turkish way. Elsewhere a bare "1.2" may be a version and stays as it came.
 */
export const QUANTITIES = new Set(["value", "target", "pct", "n", "m", "count", "s", "ms", "size", "usable", "need", "w", "kv", "total", "free", "others", "alloc"]);

/** An English-written number as Turkish writes it, grouped as Intl's tr-TR does: "1,234.5" → "1.234,5"; the decimals as the server gave them. */
const turkish = (n: string) => {
  const [int = "", frac] = n.replaceAll(",", "").split(".");
  return int.replace(/\B(?=(\d{3})+$)/g, ".") + (frac === undefined ? "" : `,${frac}`);
};

/**
 * The English-written numbers inside a value as Turkish writes them: one with a thousands comma
 * ("1,234.5"), one before a unit ("0.5 GiB", "1234.5 GiB", "12.5%"), and a quantity's bare number.
 * A version (1.2), a MIG profile (3g.40gb), an address, a port or a timestamp is none of these and stays.
 */
export function numbersTr(value: string, quantity = false): string {
  if (quantity && /^\d+(?:,\d{3})*(?:\.\d+)?$/.test(value)) return turkish(value);
  return value.replace(/(?<![\w.,:])\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\w.,]?\d)|(?<![\w.,:])\d+(?:\.\d+)?(?= ?(?:(?:GiB|MiB|GB|TB|ms|s)\b|%))/g, turkish);
}
