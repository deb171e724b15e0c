import type { ActorContext } from "../auth/actor.ts";
import { recordAudit } from "../audit/record.ts";
import { InvalidInputError, NotFoundError } from "../errors.ts";
import type { VerifyRegionInput } from "./schemas.ts";

/** External servers and whether an admin has checked where they are (the gateway routes only to checked ones). */
export function listExternalRegions({ db }: ActorContext) {
  return db.replica.findMany({
    where: { driver: "external", state: { not: "stopped" } },
    select: { id: true, externalUrl: true, region: true, state: true, regionVerifiedAt: true, regionVerifiedByEmail: true, regionEvidence: true, plainHttpAllowed: true, createdAt: true },
    orderBy: { createdAt: "desc" },
  });
}

/** Records how an external server's region label was checked; from then the gateway may route to it. */
export async function verifyRegion(ctx: ActorContext, input: VerifyRegionInput) {
  return ctx.db.$transaction(async (tx) => {
    const before = await tx.replica.findUnique({ where: { id: input.replicaId } });
    if (!before) throw new NotFoundError("Replica");
    if (before.driver !== "external") throw new InvalidInputError("replicaId", "only an external server's region is typed by hand; Kule's own drivers report theirs");
    const after = await tx.replica.update({ where: { id: before.id }, data: { regionVerifiedAt: new Date(), regionVerifiedByEmail: ctx.actor.email, regionEvidence: input.evidence } });
    await recordAudit(tx, { actor: ctx.actor, ip: ctx.ip, action: "kvkk.region.verify", targetType: "replica", targetId: before.id, before: { region: before.region, regionVerifiedAt: before.regionVerifiedAt }, after: { region: after.region, regionVerifiedAt: after.regionVerifiedAt, evidence: input.evidence } });
    return after;
  });
}
