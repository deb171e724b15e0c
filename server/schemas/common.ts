import { z } from "zod";

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
