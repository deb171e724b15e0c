import { z } from "zod";
import { LOCALES } from "../shared/i18n/locales.ts";
import { PriorityClass } from "../db/generated/enums.ts";

export const id = z.string().min(1, "required").max(64);

export const slug = z
  .string()
  .trim()
  .min(2, "at least 2 characters")
  .max(48, "at most 48 characters")
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "lowercase letters, digits and single dashes, like chat-large");

export const displayName = z.string().trim().min(2, "at least 2 characters").max(80, "at most 80 characters");

/** A positive whole number that may arrive as a bigint, a number or a string of digits. */
export const positiveBigInt = z
  .union([z.bigint(), z.number().int("a whole number"), z.string().trim().regex(/^\d+$/, "a whole number")])
  .transform((v) => BigInt(v))
  .refine((v) => v > 0n, "must be greater than 0");

/** The input of a call that takes none: anything sent is refused, naming the key (not silently ignored). */
export const noInput = z.strictObject({}).optional();

/** An amount of money, exact: a decimal string (never a float) of up to 6 decimals. */
export const money = z
  .union([z.number(), z.string().trim()])
  .transform((v) => String(v))
  .refine((v) => /^\d{1,12}(\.\d{1,6})?$/.test(v), "an amount like 12.50 (up to 6 decimals)");

/** A call's class in the gateway's overload queue (server/gateway/overload/priority.ts). */
export const priorityClass = z.enum(PriorityClass);

/** A per-minute gateway limit (requests or tokens); null removes it. */
export const perMinuteLimit = z.number().int("a whole number").min(1, "at least 1 per minute").max(100_000_000, "at most 100,000,000 per minute").nullable();

/** The language a file's headers are written in (the user's page language); English when absent. */
export const locale = z.enum(LOCALES).optional();
