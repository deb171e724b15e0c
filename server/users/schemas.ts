import { z } from "zod";
import { displayName, id } from "../schemas/common.ts";
import { Role } from "../db/generated/enums.ts";

export const password = z.string().min(10, "at least 10 characters").max(200, "at most 200 characters");

const roleWithTenant = {
  role: z.enum(Role),
  tenantId: id.nullish(),
};

function tenantMatchesRole(v: { role: Role; tenantId?: string | null }) {
  return v.role === "tenant" ? !!v.tenantId : !v.tenantId;
}
const tenantRule = { path: ["tenantId"], message: "a tenant user needs a tenant; other roles must not have one" };

export const createUserInput = z
  .object({
    email: z.email("a valid e-mail address").trim().toLowerCase().max(200),
    name: displayName,
    password,
    ...roleWithTenant,
  })
  .refine(tenantMatchesRole, tenantRule);

export const setRoleInput = z.object({ userId: id, ...roleWithTenant }).refine(tenantMatchesRole, tenantRule);

export const userIdInput = z.object({ userId: id });

export type CreateUserInput = z.infer<typeof createUserInput>;
export type SetRoleInput = z.infer<typeof setRoleInput>;
