import type { Actor } from "../auth/actor.ts";
import type { Db } from "../db/client.ts";
import { can } from "../auth/permissions.ts";
import { recordAudit } from "../audit/record.ts";
import { InvalidInputError } from "../errors.ts";

/**
 * A client IP shown without its host part: the IPv4 /24 or the IPv6 /48 it came from. Enough to
 * see that calls came from one network (an abuse pattern, a residency question), not enough to
 * single out one subscriber line.
 */
export function maskIp(ip: string | null): string | null {
  if (!ip) return ip;
  const v4 = /^(?:::ffff:)?(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.\d{1,3}$/i.exec(ip);
  if (v4) return `${v4[1]}.${v4[2]}.${v4[3]}.0/24`;
  if (ip.includes(":")) {
    const [head = ""] = ip.split("::");
    const groups = head.split(":").filter(Boolean);
    const first3 = [...groups, "0", "0", "0"].slice(0, 3).map((g) => g.toLowerCase().replace(/^0+(?=.)/, ""));
    return `${first3.join(":")}::/48`;
  }
  return "masked";
}

/** A row of special categories (KVKK Art. 6) as someone without call-log:special-category sees it: nothing that points at a person. */
export function maskSpecial<T extends { clientIp: string | null; apiKeyId: string | null; apiKeyName: string | null }>(row: T): T {
  return { ...row, clientIp: row.clientIp ? "masked" : null, apiKeyId: null, apiKeyName: null };
}

/**
 * How the explorer shows client IPs to this actor: as stored for those whose role sees them
 * (call-log:client-ip), as stored for anyone who states a reason (recorded as its own audit
 * event), else masked. Searching by an IP shows it, so that needs the permission or a reason too.
 */
type Viewed = { clientIp: string | null; apiKeyId: string | null; apiKeyName: string | null; specialCategory: string | null };

export async function clientIpView(ctx: { db: Db; actor: Actor; ip: string | null }, ask: { reason?: string; record?: boolean; searchedIp?: string | null; target: string | null; filter?: object }): Promise<<T extends Viewed>(row: T) => T> {
  // Special categories stay masked for anyone without the explicit permission: a reason does not open them.
  const special = can(ctx.actor.role, "call-log:special-category") ? <T extends Viewed>(row: T) => row : <T extends Viewed>(row: T) => (row.specialCategory ? maskSpecial(row) : row);
  if (can(ctx.actor.role, "call-log:client-ip")) return special;
  if (ask.reason) {
    if (ask.record !== false)
      await recordAudit(ctx.db, { actor: ctx.actor, ip: ctx.ip, action: "calllog.ip.unmask", targetType: "calllog", targetId: ask.target, after: { reason: ask.reason, filter: ask.filter ?? null } });
    return special;
  }
  if (ask.searchedIp) throw new InvalidInputError("unmaskReason", "Searching by client IP shows IP addresses: say why you need them (the reason is recorded in the audit log).");
  return (row) => special({ ...row, clientIp: maskIp(row.clientIp) });
}
