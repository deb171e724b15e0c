import type { Role } from "../db/generated/enums.ts";
import type { Db } from "../db/client.ts";

/** The signed-in user a request acts as, loaded fresh from the database on every request. */
export interface Actor {
  userId: string;
  email: string;
  name: string;
  role: Role;
  /** Set for the tenant role (always: server/trpc/context.ts signs out a tenant user without one), null for staff. */
  tenantId: string | null;
  /** The language the user chose ("en" | "tr"), null to follow the browser's; unset where it does not matter (tests, jobs). */
  locale?: string | null;
}

/**
 * What every domain function acting for a user receives first: the database, who acts, and from
 * which address (for the audit log). Functions that drive the cluster or read Prometheus take
 * those beside it (`ActorContext & { drivers: Drivers }`). The tRPC context satisfies all of them.
 */
export interface ActorContext {
  db: Db;
  actor: Actor;
  ip: string | null;
}
