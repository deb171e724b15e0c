import type { Role } from "../db/generated/enums.ts";

/** The signed-in user a request acts as, loaded fresh from the database on every request. */
export interface Actor {
  userId: string;
  email: string;
  name: string;
  role: Role;
  /** Set for the tenant role: the only tenant this actor may see. */
  tenantId: string | null;
}
