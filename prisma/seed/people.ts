/**
 * Who uses the demo: two price plans, three tenants, one user per role and one API key per tenant.
 *
 * THESE ARE PUBLIC DEMO CREDENTIALS: the passwords below are public, and the API key secrets are
 * derived from the tenant slug so the demo can print them. Never seed them into a real deployment.
 */
import { createHash } from "node:crypto";
import { Role, type PrismaClient } from "../../server/db/generated/client.ts";
import { hashPassword } from "../../server/auth/password.ts";
import { apiKeyRecord } from "../../server/auth/api-key-secret.ts";
import { H100, L40S } from "../../server/cluster/sim/reference-cluster.ts";
import { lookup } from "./lookup.ts";

// Plan limits sit well above the demo's load (at most ~10 requests/s per tenant in a burst), so
// nothing is refused until an operator lowers one: then the tenant's usage page shows which.
const PRICE_PLANS = [
  { name: "Standard", inputPer1M: "20", outputPer1M: "60", perRequest: "0.02", rpmLimit: 3_000, tpmLimit: 600_000 },
  { name: "Enterprise", inputPer1M: "15", outputPer1M: "45", perRequest: "0.015", rpmLimit: 10_000, tpmLimit: 2_000_000 },
];

export const TENANTS = [
  { name: "Anadolu Bank", slug: "anadolu-bank", kvkk: true, plan: "Enterprise", monthlyBudget: "25000", rpmLimit: 6_000, creditLimit: "150000" },
  { name: "Boğaziçi Retail", slug: "bogazici-retail", kvkk: false, plan: "Standard", creditLimit: "50000" },
  // A hospital group: its calls carry health data, a special category (KVKK Art. 6).
  { name: "Ege Health", slug: "ege-health", kvkk: true, plan: "Standard", specialCategory: "health" as const },
];

export interface DemoLogin {
  email: string;
  password: string;
  role: Role;
  /** Set for the tenant role: the tenant the user belongs to. */
  tenantSlug?: string;
}

/** Public demo credentials, one user per role. */
export const DEMO_LOGINS: readonly DemoLogin[] = [
  { email: "admin@kule.local", password: "kule-admin-demo", role: Role.admin },
  { email: "operator@kule.local", password: "kule-operator-demo", role: Role.operator },
  { email: "auditor@kule.local", password: "kule-auditor-demo", role: Role.auditor },
  {
    email: "tenant@anadolu-bank.local",
    password: "kule-tenant-demo",
    role: Role.tenant,
    tenantSlug: "anadolu-bank",
  },
  {
    email: "tenant@bogazici-retail.local",
    password: "kule-tenant-demo",
    role: Role.tenant,
    tenantSlug: "bogazici-retail",
  },
];

/**
 * The demo key of a tenant: shaped like a real one (`kule_` + 40 alphanumerics) but derived
 * from the slug so the demo can print it after every seed. Its first 8 characters after
 * `kule_` come from the slug's hash, which keeps the prefixes distinct across tenants.
 */
export function demoApiKeySecret(tenantSlug: string): string {
  return `kule_${createHash("sha256").update(`kule-demo-key:${tenantSlug}`).digest("hex").slice(0, 40)}`;
}

/** Prices in force since the start of the year, so the demo's traffic is charged from the first call. */
const PRICES_FROM = new Date("2026-01-01T00:00:00Z");

export async function seedPricePlans(db: PrismaClient): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  for (const { name, rpmLimit, tpmLimit, ...price } of PRICE_PLANS) {
    const row = await db.pricePlan.upsert({ where: { name }, create: { name, rpmLimit, tpmLimit }, update: {} });
    if ((await db.planPrice.count({ where: { planId: row.id } })) === 0) await db.planPrice.create({ data: { planId: row.id, effectiveFrom: PRICES_FROM, ...price } });
    ids.set(name, row.id);
  }
  return ids;
}

/** What the hardware costs an hour to run (TRY): what the cost pages set against revenue. */
const HARDWARE_RATES = [
  { kind: "gpu" as const, key: H100.modelName, perHour: "95" },
  { kind: "gpu" as const, key: L40S.modelName, perHour: "40" },
];

export async function seedHardwareRates(db: PrismaClient) {
  for (const r of HARDWARE_RATES) {
    if ((await db.hardwareRate.count({ where: { kind: r.kind, key: r.key } })) === 0) await db.hardwareRate.create({ data: { ...r, effectiveFrom: PRICES_FROM } });
  }
  // Each CPU node by its hostname.
  for (const n of await db.node.findMany({ where: { gpus: { none: {} } }, select: { hostname: true } })) {
    if ((await db.hardwareRate.count({ where: { kind: "cpu", key: n.hostname } })) === 0) await db.hardwareRate.create({ data: { kind: "cpu", key: n.hostname, perHour: "12", effectiveFrom: PRICES_FROM } });
  }
}

export async function seedTenants(db: PrismaClient, planIds: Map<string, string>): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  for (const t of TENANTS) {
    const row = await db.tenant.upsert({
      where: { slug: t.slug },
      create: {
        name: t.name,
        slug: t.slug,
        kvkk: t.kvkk,
        pricePlanId: lookup(planIds, t.plan),
        monthlyBudget: "monthlyBudget" in t ? t.monthlyBudget : null,
        rpmLimit: "rpmLimit" in t ? t.rpmLimit : null,
        creditLimit: "creditLimit" in t ? t.creditLimit : null,
        specialCategory: "specialCategory" in t ? t.specialCategory : null,
      },
      update: {},
    });
    ids.set(t.slug, row.id);
  }
  return ids;
}

function displayName(login: DemoLogin): string {
  const tenant = TENANTS.find((t) => t.slug === login.tenantSlug);
  return tenant ? `${tenant.name} (demo)` : `Demo ${login.role}`;
}

export async function seedUsers(db: PrismaClient, tenantIds: Map<string, string>): Promise<void> {
  for (const login of DEMO_LOGINS) {
    // bcrypt is the slow part of the seed: hash only for users that don't exist yet.
    const user =
      (await db.user.findUnique({ where: { email: login.email } })) ??
      (await db.user.create({
        data: { email: login.email, name: displayName(login), passwordHash: await hashPassword(login.password) },
      }));
    const tenantId = login.tenantSlug ? lookup(tenantIds, login.tenantSlug) : null;
    await db.membership.upsert({
      where: { userId: user.id },
      create: { userId: user.id, role: login.role, tenantId },
      update: {},
    });
  }
}

/** Returns each model's id and the id of its first version (the one endpoints start on). */
export async function seedApiKeys(
  db: PrismaClient,
  tenantIds: Map<string, string>,
): Promise<{ tenantSlug: string; secret: string }[]> {
  const keys = TENANTS.map((t) => ({ tenantSlug: t.slug, secret: demoApiKeySecret(t.slug) }));
  const prefixes = new Set(keys.map((k) => apiKeyRecord(k.secret).prefix));
  if (prefixes.size !== keys.length) throw new Error("Demo API key prefixes collide; change the derivation");

  for (const { tenantSlug, secret } of keys) {
    const { prefix, hash } = apiKeyRecord(secret);
    await db.apiKey.upsert({
      where: { secretHash: hash },
      create: {
        tenantId: lookup(tenantIds, tenantSlug),
        name: "demo",
        prefix,
        secretHash: hash,
        allowedEndpointIds: [], // every endpoint
      },
      update: {},
    });
  }
  return keys;
}
