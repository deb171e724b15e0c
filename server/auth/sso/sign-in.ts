import { createRemoteJWKSet, jwtVerify, type JWTPayload } from "jose";
import type { PrismaClient } from "../../db/generated/client.ts";
import { recordAudit } from "../../audit/record.ts";
import { membershipActive, membershipInclude } from "../membership.ts";
import { mapClaims } from "./mapping.ts";
import { listRules } from "./rules.ts";
import type { SsoConfig } from "./config.ts";
import { auditSignIn, type SignInRefusal } from "./audit.ts";
import { checkOutboundUrl, outboundFetch } from "../../http/outbound.ts";

export type SsoResult = { ok: true; userId: string } | { ok: false; code: SignInRefusal; reason: string };

const jwks = new Map<string, ReturnType<typeof createRemoteJWKSet>>();

/** The provider's signing keys, from its discovery document (cached per process; jose refetches on an unknown key id). */
async function keysOf(config: SsoConfig) {
  let set = jwks.get(config.issuer);
  if (!set) {
    const res = await outboundFetch("KULE_OIDC_ISSUER")(`${config.issuer.replace(/\/$/, "")}/.well-known/openid-configuration`, { signal: AbortSignal.timeout(10_000) });
    if (!res.ok) throw new Error(`the provider's discovery document answered ${res.status}`);
    const { jwks_uri } = (await res.json()) as { jwks_uri?: string };
    if (!jwks_uri) throw new Error("the provider's discovery document names no jwks_uri");
    // jose fetches the key set itself, again whenever a token names a key it has not seen: check where it points.
    await checkOutboundUrl(jwks_uri, "jwks_uri");
    set = createRemoteJWKSet(new URL(jwks_uri));
    jwks.set(config.issuer, set);
  }
  return set;
}

/**
 * Checks the ID token's signature against the provider's published keys, in the one algorithm
 * pinned (KULE_OIDC_ID_TOKEN_ALG), and its issuer, audience and expiry. next-auth (oauth4webapi)
 * checks the claims of an ID token received from the token endpoint but not its signature; Kule
 * maps roles from these claims, so it checks it itself.
 */
export async function verifyIdToken(config: SsoConfig, idToken: string | undefined): Promise<{ ok: true; claims: JWTPayload } | { ok: false; reason: string }> {
  if (!idToken) return { ok: false, reason: "the provider returned no ID token" };
  try {
    const { payload } = await jwtVerify(idToken, await keysOf(config), { issuer: config.issuer, audience: config.clientId, algorithms: [config.idTokenAlg], clockTolerance: 30 });
    return { ok: true, claims: payload };
  } catch (e) {
    return { ok: false, reason: `the ID token does not verify: ${(e as Error).message}` };
  }
}

/**
 * Signs in an identity the provider vouched for (claims from a verified ID token): maps its role and
 * tenant by the admins' rules, creates the user at the first sign-in, and brings its membership in
 * line with the rules at later ones (a group removed at the provider takes the role away). Every
 * outcome is an audit event; a refusal says why.
 */
export async function ssoSignIn(db: PrismaClient, issuer: string, claims: JWTPayload, ip: string | null): Promise<SsoResult> {
  const subject = `${issuer}|${claims.sub}`;
  const email = typeof claims.email === "string" ? claims.email.trim().toLowerCase() : null;
  const refuse = async (code: SignInRefusal, reason: string): Promise<SsoResult> => {
    await auditSignIn(db, { method: "sso", ok: false, email, subject, code, reason, ip });
    return { ok: false, code, reason };
  };
  if (!claims.sub) return refuse("invalid_token", "the ID token names no subject");
  if (!email) return refuse("no_email", "the identity carries no e-mail claim: add the email scope at the provider");

  const mapping = mapClaims(await listRules(db), claims as Record<string, unknown>);
  if (!mapping.ok) return refuse(mapping.code, mapping.reason);
  const name = typeof claims.name === "string" && claims.name.trim() ? claims.name.trim().slice(0, 80) : email;

  return db.$transaction(async (tx) => {
    let user = await tx.user.findUnique({ where: { ssoSubject: subject }, include: membershipInclude });
    if (!user) {
      const sameEmail = await tx.user.findUnique({ where: { email }, include: membershipInclude });
      if (sameEmail && (sameEmail.ssoSubject || claims.email_verified !== true)) {
        const reason = `${email} already belongs to another account, and the provider does not vouch for the address (email_verified): an admin links them`;
        await auditSignIn(tx, { method: "sso", ok: false, email, subject, code: "email_taken", reason, ip });
        return { ok: false as const, code: "email_taken" as const, reason };
      }
      user = sameEmail
        ? await tx.user.update({ where: { id: sameEmail.id }, data: { ssoSubject: subject }, include: membershipInclude })
        : await tx.user.create({ data: { email, name, ssoSubject: subject, membership: { create: { role: mapping.role, tenantId: mapping.tenantId } } }, include: membershipInclude });
      if (!sameEmail) await recordAudit(tx, { actor: null, ip, action: "user.create", targetType: "user", targetId: user.id, after: { email, name, role: mapping.role, tenantId: mapping.tenantId, via: "sso", rule: mapping.ruleId } });
    }
    const m = user.membership;
    if (!m || m.role !== mapping.role || m.tenantId !== mapping.tenantId) {
      await tx.membership.upsert({ where: { userId: user.id }, create: { userId: user.id, role: mapping.role, tenantId: mapping.tenantId }, update: { role: mapping.role, tenantId: mapping.tenantId } });
      if (m) await recordAudit(tx, { actor: null, ip, action: "user.role.set", targetType: "user", targetId: user.id, before: { role: m.role, tenantId: m.tenantId }, after: { role: mapping.role, tenantId: mapping.tenantId, via: "sso", rule: mapping.ruleId } });
      user = await tx.user.findUniqueOrThrow({ where: { id: user.id }, include: membershipInclude });
    }
    if (!membershipActive(user.membership)) {
      const reason = "the tenant this identity maps to has been offboarded";
      await auditSignIn(tx, { method: "sso", ok: false, email, subject, userId: user.id, code: "tenant_gone", reason, ip });
      return { ok: false as const, code: "tenant_gone" as const, reason };
    }
    await auditSignIn(tx, { method: "sso", ok: true, email, subject, userId: user.id, ip, role: mapping.role, rule: mapping.ruleId });
    return { ok: true as const, userId: user.id };
  });
}
