import { randomBytes } from "node:crypto";

/** Ids for rows written with plain SQL, shaped like Prisma's cuid() (a letter, then base36). */
export function createId(): string {
  return `c${Date.now().toString(36)}${randomBytes(8).toString("hex")}`;
}
