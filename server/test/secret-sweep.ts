import { processRings } from "../call-log/keys/rings.ts";
import { alertWebhookToken } from "../alerts/webhook-token.ts";
import { env } from "../env.ts";
import { storedSdToken } from "../metrics/prometheus/sd-token.ts";
import { testDb } from "./harness.ts";

/** An SMTP password the sweep plants in a receiver, so a leak of receivers' settings shows. */
export const PLANTED_SMTP_PASSWORD = "planted-smtp-password-5f3a9c";

/**
 * Every secret a tRPC answer must never carry, as the strings they are stored as: the users'
 * password hashes and the API keys' secret hashes (a hash is a target for offline guessing), the
 * call log's subject-hash keys, the webhook and discovery tokens, the auth secret, the planted
 * SMTP password, and any private key in PEM.
 */
export async function knownSecrets(): Promise<string[]> {
  const db = testDb();
  const [users, keys] = await Promise.all([db.user.findMany({ where: { passwordHash: { not: null } }, select: { passwordHash: true } }), db.apiKey.findMany({ select: { secretHash: true } })]);
  const rings = processRings();
  return [
    ...users.map((u) => u.passwordHash!),
    ...keys.map((k) => k.secretHash),
    ...[...rings.standard.versions, ...rings.special.versions].map((v) => v.subject.toString("utf8")),
    alertWebhookToken(),
    storedSdToken(env.KULE_DATA_DIR),
    ...(env.AUTH_SECRET ? [env.AUTH_SECRET] : []),
    PLANTED_SMTP_PASSWORD,
    "PRIVATE KEY-----",
  ].filter((s) => s.length >= 12);
}

/** The first known secret found anywhere in `answer`, or null. */
export function leakedSecret(answer: unknown, secrets: readonly string[]): string | null {
  const text = JSON.stringify(answer, (_k, v: unknown) => (typeof v === "bigint" ? String(v) : v)) ?? "";
  return secrets.find((s) => text.includes(s)) ?? null;
}
