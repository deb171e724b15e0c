import type { Actor } from "../auth/actor.ts";
import { testDb, uid } from "../test/harness.ts";

/* Rows the permission matrix's cases (permission-matrix.cases.ts) create for the procedure they call. */

/** A call-log row of the tenant, as the gateway writes it. */
export async function callLogRow(tenantId: string) {
  const requestId = `matrix-${uid()}`;
  await testDb().$executeRaw`INSERT INTO "CallLog" ("requestId", "tenantId", "startedAt", "endedAt", status) VALUES (${requestId}, ${tenantId}, now(), now(), 200)`;
  return requestId;
}

export async function subjectRequest(tenantId: string, actor: Actor | undefined) {
  const r = await testDb().dataSubjectRequest.create({ data: { subjectHash: "0".repeat(64), tenantId, rowsFound: 0, requestedById: actor?.userId ?? "x", requestedByEmail: "x" } });
  return r.id;
}

export function breach() {
  return testDb().breachIncident.create({ data: { title: "Matrix incident", detector: "manual", awareAt: new Date(), boardDueAt: new Date(Date.now() + 72 * 3_600_000), description: "For the permission matrix" } });
}

/** An application to the fixture tenant, as received. */
export function application(tenantId: string) {
  return testDb().dataSubjectRequest.create({ data: { subjectHash: "f".repeat(64), tenantId, rowsFound: 0, requestedById: "x", requestedByEmail: "x", channel: "written", receivedAt: new Date(), identityCheck: "ID seen", right: "erasure", dueAt: new Date(Date.now() + 30 * 86_400_000) } });
}

/** A standard contract signed an hour ago for a country no replica is in, so it routes nothing. */
export function safeguard(tenantId: string) {
  return testDb().transferSafeguard.create({ data: { tenantId, destination: "zz", importer: "Matrix Ltd", mechanism: "standard_contract", reference: "M-1", signedAt: new Date(Date.now() - 3_600_000), createdByEmail: "x" } });
}

/** A fresh sign-in rule (after at least one other, so it can move up), as its id and version. */
export async function ssoRule() {
  const db = testDb();
  const last = await db.ssoRule.aggregate({ _max: { position: true } });
  const r = await db.ssoRule.create({ data: { claim: "groups", value: `m-${uid()}`, role: "auditor", position: (last._max.position ?? 0) + 2 } });
  if (!last._max.position) await db.ssoRule.create({ data: { claim: "groups", value: `m-${uid()}`, role: "auditor", position: 1 } });
  return { id: r.id, expectedVersion: r.version };
}
